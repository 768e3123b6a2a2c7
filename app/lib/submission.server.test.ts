import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseSubmission, readForm, submissionOf } from "./submission.server";

const post = (body: string) =>
  new Request("http://localhost/form", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body,
  });

const schema = z.object({ name: z.string(), note: z.string().optional() });
const REFUSED = "A NUL character (U+0000) cannot be stored: leave it out";

const errorsOf = (submission: Awaited<ReturnType<typeof parseSubmission>>["submission"]) =>
  submission.status === "success" ? null : submission.error;

describe("a form holding a NUL character", () => {
  it("comes back to a conform form with the field's error and the form's, nothing passed on", async () => {
    const { submission } = await parseSubmission(post("name=Ann&note=a%00b"), schema);
    expect(submission.status).toBe("error");
    expect(errorsOf(submission)).toEqual({
      "": [`${REFUSED} of note`],
      note: [REFUSED],
    });
    // What was typed comes back, so the form shows it again.
    expect(submission.payload).toMatchObject({ name: "Ann" });
  });

  it("is refused whatever the schema takes: a field it does not know, or a field's name", async () => {
    const unknown = await parseSubmission(post("name=Ann&extra=%00"), schema);
    expect(errorsOf(unknown.submission)).toMatchObject({ "": [`${REFUSED} of extra`], extra: [REFUSED] });
    const name = await parseSubmission(post("name=Ann&a%00=1"), schema);
    expect(errorsOf(name.submission)).toEqual({ "": [`${REFUSED} of a field's name`] });
  });

  it.each(["__proto__", "constructor", "toString"])(
    "is refused above the form when the field holding it is named %s, as every object's property is",
    async (field) => {
      const { submission } = await parseSubmission(post(`name=Ann&${field}=%00`), schema);
      expect(errorsOf(submission)).toEqual({ "": [`${REFUSED} of ${field}`] });
    },
  );

  it("is refused with a 400 naming the field when an action reads the form by hand", async () => {
    const thrown = await readForm(post("intent=create&cf_version=a%00b")).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(400);
    expect(await (thrown as Response).json()).toBe(`${REFUSED} of cf_version`);
  });

  it("passes a form without one as it was", async () => {
    const form = await readForm(post("name=100%2500&note=%5Cu0000"));
    expect(Object.fromEntries(form)).toEqual({ name: "100%00", note: "\\u0000" });
    expect(submissionOf(form, schema).status).toBe("success");
  });
});
