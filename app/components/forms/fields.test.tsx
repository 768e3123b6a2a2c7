import {
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type FieldMetadata,
  type SubmissionResult,
} from "@conform-to/react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ErrorList, fieldView, inputProps, PlainField, selectProps, textareaProps } from "./fields";
import { RadioField } from "./radio-field";

describe("ErrorList", () => {
  it("shows one message per field: the first rule the value breaks", () => {
    const html = renderToString(
      <ErrorList id="email-error" errors={["Enter your e-mail address", "Enter a valid e-mail address"]} />,
    );
    expect(html).toBe('<p id="email-error" class="field-error">Enter your e-mail address</p>');
  });

  it("shows nothing without errors", () => {
    expect(renderToString(<ErrorList errors={[]} />)).toBe("");
    expect(renderToString(<ErrorList errors={null} />)).toBe("");
  });
});

describe("PlainField", () => {
  it("names its error beside the input and marks the input invalid", () => {
    const html = renderToString(<PlainField id="city" label="City" name="city" error="Enter the city" />);
    expect(html).toBe(
      '<div class="field"><label for="city">City</label><input id="city" name="city" aria-invalid="true" aria-describedby="city-error"/><p id="city-error" class="field-error">Enter the city</p></div>',
    );
  });

  it("names its hint whether or not there is an error", () => {
    const html = renderToString(<PlainField id="code" label="Code" hint="Six digits" />);
    expect(html).toContain('aria-describedby="code-hint"');
    expect(html).not.toContain("aria-invalid");
    expect(html).not.toContain("field-error");
  });
});

describe("fieldView", () => {
  type Fields = {
    given: string;
    missing: string;
    many: string[];
    agreed: string;
    blank: string;
    address: { city: string };
  };
  // What conform's helpers make of the field's metadata, and the house's props of its view, for
  // every kind of field and state the forms have: the markup must not tell them apart.
  function propsOf(lastResult: SubmissionResult<string[]> | undefined, id: string | undefined) {
    const seen: Array<{ from: unknown; view: unknown }> = [];
    function Probe() {
      const [, fields] = useForm<Fields>({
        id,
        lastResult,
        defaultValue: { given: "Jo", many: ["a", "b"], agreed: "on", blank: "", address: { city: "Oslo" } },
      });
      const address = fields.address.getFieldset();
      const metas = [fields.given, fields.missing, fields.many, fields.agreed, fields.blank, address.city] as Array<
        FieldMetadata<unknown>
      >;
      for (const meta of metas) {
        for (const [conform, house] of makers) seen.push({ from: conform(meta), view: house(fieldView(meta)) });
      }
      return null;
    }
    renderToString(<Probe />);
    return seen;
  }
  type Maker = (meta: FieldMetadata<unknown>) => unknown;
  const makers: Array<[conform: Maker, house: Maker]> = [
    [
      (meta) => getInputProps(meta, { type: "text", ariaAttributes: true }),
      (view) => inputProps(view, { type: "text" }),
    ],
    [
      (meta) => getInputProps(meta, { type: "email", ariaAttributes: true, ariaDescribedBy: `${meta.id}-description` }),
      (view) => inputProps(view, { type: "email", describedBy: `${view.id}-description` }),
    ],
    [
      (meta) => getInputProps(meta, { type: "checkbox", ariaAttributes: true }),
      (view) => inputProps(view, { type: "checkbox" }),
    ],
    [(meta) => getSelectProps(meta, { ariaAttributes: true }), (view) => selectProps(view, undefined)],
    [
      (meta) => getTextareaProps(meta, { ariaAttributes: true, ariaDescribedBy: "hint" }),
      (view) => textareaProps(view, "hint"),
    ],
    [
      (meta) => ({ id: meta.id, errorId: meta.errorId, descriptionId: meta.descriptionId }),
      (view) => ({ id: view.id, errorId: view.errorId, descriptionId: view.descriptionId }),
    ],
  ];
  const failed: SubmissionResult<string[]> = {
    status: "error",
    initialValue: { given: "J", agreed: "", "address.city": "" },
    error: { given: ["Too short"], "address.city": ["Enter a city"], many: ["Pick one"] },
  };

  it.each([
    ["a form's first render", undefined, undefined],
    ["a form with its own id", undefined, "contact"],
    ["an answer with errors", failed, "contact"],
  ] as const)("gives conform's props: %s", (_, lastResult, id) => {
    const seen = propsOf(lastResult, id);
    expect(seen.length).toBe(36);
    for (const { from, view } of seen) expect(view).toEqual(from);
  });

  it("carries the errors and the first values", () => {
    const seen = propsOf(failed, "contact");
    expect(seen[0]?.view).toMatchObject({ "aria-invalid": true, defaultValue: "J", id: "contact-given" });
  });
});

describe("RadioField", () => {
  function render(lastResult?: SubmissionResult<string[]>) {
    function Plans() {
      const [, fields] = useForm<{ planId: string }>({
        id: "change-plan",
        lastResult,
        defaultValue: { planId: "annual" },
      });
      return (
        <RadioField
          meta={fields.planId}
          label="New plan"
          hint="Prorated."
          choices={[
            { value: "monthly", label: "Monthly membership — $20.00 a month" },
            { value: "annual", label: "Annual membership — $200.00 a year" },
          ]}
        />
      );
    }
    return renderToString(<Plans />);
  }

  it("names the group by its legend, describes it by its hint and checks the chosen value", () => {
    const html = render();
    expect(html).toContain('<fieldset aria-describedby="change-plan-planId-description"><legend>New plan</legend>');
    expect(html).toContain(
      '<input type="radio" id="change-plan-planId-1" name="planId" form="change-plan" checked="" value="annual"/>',
    );
    expect(html).toContain(
      '<input type="radio" id="change-plan-planId-0" name="planId" form="change-plan" value="monthly"/>',
    );
    expect(html).toContain('<label for="change-plan-planId-0">Monthly membership — $20.00 a month</label>');
  });

  it("shows the field's error and points the group at it", () => {
    const html = render({ status: "error", initialValue: { planId: "" }, error: { planId: ["Choose a plan"] } });
    expect(html).toContain('aria-describedby="change-plan-planId-description change-plan-planId-error"');
    expect(html).toContain('<p id="change-plan-planId-error" class="field-error">Choose a plan</p>');
  });
});
