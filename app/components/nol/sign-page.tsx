import type { SubmissionResult } from "@conform-to/react";
import type { SerializeFrom } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import type SignaturePad from "signature_pad";
import {
  ErrorList,
  Field,
  FormErrors,
  formProps,
  inputProps,
  useSchemaForm,
  type FieldMeta,
} from "~/components/forms/fields";
import { RadioChoice } from "~/components/forms/radio-field";
import { Alert } from "~/components/ui/alert";
import { SubmitButton } from "~/components/ui/submit-button";
import type { signPage } from "~/services/documents/sign-round.server";

type Data = SerializeFrom<Awaited<ReturnType<typeof signPage>>>;
type Meta = FieldMeta;

/**
 * The sign page of a round: what is signed, the consent's words, the form (a typed name, or a
 * signature drawn on a pad that loads only when chosen), and the signature kept.
 */
export function SignPage({ data, lastResult }: { data: Data; lastResult?: SubmissionResult<string[]> }) {
  return (
    <section className="card" aria-labelledby="sign-title">
      <p>
        <Link to={data.versionHref}>
          {data.causeName} · {data.version}
        </Link>
      </p>
      <h1 id="sign-title">{data.title}</h1>
      {data.signature ? <Signed signature={data.signature} /> : null}
      <section aria-labelledby="signed-document-title">
        <h2 id="signed-document-title">What you sign</h2>
        <p>
          {data.roundName} of “{data.version}”: your signature goes on each letter of it mailed for you from here, and
          on the PDF you download if you choose so. <a href={data.noticeHref}>Read the notice you sign (PDF)</a>
        </p>
      </section>
      {data.refusal ? (
        <Alert kind="warn">{data.refusal}</Alert>
      ) : (
        // A new signature starts a new form: the consent is given again, each time.
        <SignForm key={data.signature?.recordId ?? "unsigned"} data={data} lastResult={lastResult} />
      )}
      <p>
        {data.mailHref ? (
          <>
            <Link to={data.mailHref}>Back to Mail it for me</Link> ·{" "}
          </>
        ) : null}
        <Link to={data.versionHref}>Back to the version</Link>
      </p>
    </section>
  );
}

/** The round's signature as kept: who, when, how, the notice's SHA-256 and the record. */
function Signed({ signature }: { signature: NonNullable<Data["signature"]> }) {
  return (
    <section className="signed-summary" aria-labelledby="signed-title">
      <h2 id="signed-title">{signature.line}</h2>
      <dl className="timeline-facts">
        <dt>Signed by</dt>
        <dd>{signature.name}</dd>
        <dt>When</dt>
        <dd>{signature.signedAt}</dd>
        <dt>How</dt>
        <dd>{signature.method}</dd>
        <dt>Your download</dt>
        <dd>{signature.download}</dd>
        <dt>The notice's SHA-256</dt>
        <dd className="fingerprint">{signature.sha256}</dd>
        <dt>Record</dt>
        <dd className="fingerprint">{signature.recordId}</dd>
      </dl>
    </section>
  );
}

function SignForm({ data, lastResult }: { data: Data; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useSchemaForm(() => import("~/domain/documents/signature").then((m) => m.signFormSchema), {
    lastResult,
    defaultValue: { name: data.defaultName, method: "typed", onDownload: data.defaultDownload },
  });
  const [method, setMethod] = useState(fields.method.initialValue === "drawn" ? "drawn" : "typed");
  // Drawing needs the pad's script: until the page runs it (or without JavaScript) the typed name signs.
  const [canDraw, setCanDraw] = useState(false);
  useEffect(() => setCanDraw(true), []);
  const [drawing, setDrawing] = useState("");
  const consent = fields.consent;
  const consentProps = inputProps(consent, { type: "checkbox", describedBy: "consent-words" });
  const drawingView = fields.drawing;
  return (
    <Form method="post" className="form" aria-labelledby="sign-form-title" {...formProps(form)}>
      <h2 id="sign-form-title">{data.signature ? "Sign again" : "Your signature"}</h2>
      <FormErrors form={form} />
      <section id="consent-words" className="consent-words" aria-label="Consent to sign electronically">
        {data.consent.map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
      </section>
      <div className="field">
        <div className="checkbox">
          <input {...consentProps} />
          <label htmlFor={consent.id}>I have read the words above and agree to sign electronically</label>
        </div>
        <ErrorList id={consent.errorId} errors={consent.errors} />
      </div>
      <Field
        meta={fields.name}
        label="Your full name"
        hint="As you sign: it is printed with your signature."
        autoComplete="name"
      />
      <MethodChoice meta={fields.method} method={method} canDraw={canDraw} onChoose={setMethod} />
      {method === "drawn" && canDraw ? (
        <DrawingPad view={drawingView} onDrawing={setDrawing} />
      ) : (
        <ErrorList id={drawingView.errorId} errors={drawingView.errors} />
      )}
      <input type="hidden" name="drawing" value={method === "drawn" ? drawing : ""} />
      <DownloadChoice meta={fields.onDownload} />
      <SubmitButton pendingText="Signing…">{data.signature ? "Sign again" : "Sign the notice"}</SubmitButton>
    </Form>
  );
}

/** Typed or drawn: drawing is offered once the page's script runs. */
function MethodChoice({
  meta,
  method,
  canDraw,
  onChoose,
}: {
  meta: Meta;
  method: string;
  canDraw: boolean;
  onChoose: (method: "typed" | "drawn") => void;
}) {
  const hintId = `${meta.id}-hint`;
  return (
    <fieldset aria-describedby={[hintId, meta.errors !== undefined ? meta.errorId : null].filter(Boolean).join(" ")}>
      <legend>How you sign</legend>
      <p id={hintId} className="field-hint">
        {canDraw
          ? "Type your name, or draw your signature with a mouse, a finger or a pen."
          : "Your typed name is your signature: drawing one needs JavaScript."}
      </p>
      <RadioChoice
        meta={meta}
        id={`${meta.id}-typed`}
        value="typed"
        checked={method === "typed"}
        onChange={() => onChoose("typed")}
      >
        Type my name: it is printed in a handwriting style
      </RadioChoice>
      <RadioChoice
        meta={meta}
        id={`${meta.id}-drawn`}
        value="drawn"
        disabled={!canDraw}
        checked={method === "drawn"}
        onChange={() => onChoose("drawn")}
      >
        Draw my signature
      </RadioChoice>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </fieldset>
  );
}

/**
 * The signing pad: signature_pad loads when the member chooses to draw, not with the page. Each
 * stroke hands the drawing on as a PNG data URL; an empty pad hands on nothing.
 */
function DrawingPad({ view, onDrawing }: { view: Meta; onDrawing: (dataUrl: string) => void }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const pad = useRef<SignaturePad | null>(null);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");
  useEffect(() => {
    let live = true;
    let made: SignaturePad | null = null;
    import("signature_pad").then(
      ({ default: Pad }) => {
        const element = canvas.current;
        if (!live || !element) return;
        // Drawn at the screen's own density (at most 2×), so the PNG stays small and sharp.
        const ratio = Math.min(window.devicePixelRatio || 1, 2);
        element.width = element.offsetWidth * ratio;
        element.height = element.offsetHeight * ratio;
        element.getContext("2d")?.scale(ratio, ratio);
        made = new Pad(element, { penColor: "#111827", minWidth: 0.8, maxWidth: 2.6 });
        const pen = made;
        pen.addEventListener("endStroke", () => onDrawing(pen.isEmpty() ? "" : pen.toDataURL("image/png")));
        pad.current = pen;
        setState("ready");
      },
      () => live && setState("failed"),
    );
    return () => {
      live = false;
      made?.off();
      pad.current = null;
      onDrawing("");
    };
  }, [onDrawing]);
  const clear = () => {
    pad.current?.clear();
    onDrawing("");
  };
  const hintId = `${view.id}-pad-hint`;
  const describedBy = [hintId, view.errors !== undefined ? view.errorId : null].filter(Boolean).join(" ");
  return (
    <div className="field">
      <p id={`${view.id}-label`}>
        <strong>Draw your signature</strong>
      </p>
      <canvas
        ref={canvas}
        className="signature-pad"
        role="img"
        aria-labelledby={`${view.id}-label`}
        aria-describedby={describedBy}
      />
      <p id={hintId} className="field-hint" aria-live="polite">
        {state === "loading"
          ? "The drawing pad is loading…"
          : state === "failed"
            ? "The drawing pad could not load: type your name instead."
            : "Sign inside the box. If you cannot draw, choose to type your name."}
      </p>
      <ErrorList id={view.errorId} errors={view.errors} />
      <button type="button" className="button" onClick={clear} disabled={state !== "ready"}>
        Clear the drawing
      </button>
    </div>
  );
}

/** What the PDF the member downloads carries: their signature, or a line to sign by hand. */
function DownloadChoice({ meta }: { meta: Meta }) {
  const chosen = meta.initialValue === "hand" ? "hand" : "signed";
  return (
    <fieldset aria-describedby={meta.errors !== undefined ? meta.errorId : undefined}>
      <legend>The PDF you download</legend>
      <RadioChoice meta={meta} id={`${meta.id}-signed`} value="signed" defaultChecked={chosen === "signed"}>
        Carries my signature
      </RadioChoice>
      <RadioChoice meta={meta} id={`${meta.id}-hand`} value="hand" defaultChecked={chosen === "hand"}>
        Keeps a line for me to sign by hand (the letters mailed for me are signed all the same)
      </RadioChoice>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </fieldset>
  );
}
