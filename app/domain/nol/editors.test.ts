import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import { editorFormSchema } from "./editors";

const submit = (values: Record<string, string>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(values)) form.set(name, value);
  return parseWithZod(form, { schema: editorFormSchema });
};

describe("the editor forms", () => {
  it("takes a username in any case, trimmed, for adding or removing", () => {
    const added = submit({ intent: "add", username: "  Cara_1 " });
    expect(added.status === "success" && added.value).toEqual({ intent: "add", username: "cara_1" });
    expect(submit({ intent: "remove", username: "cara" }).status).toBe("success");
  });

  it.each([[""], ["ab"], ["has space"], ["x".repeat(33)]])("asks for a username instead of %j", (username) => {
    const submission = submit({ intent: "add", username });
    expect(submission.status === "error" && submission.error?.username).toEqual(["Enter a username"]);
  });
});
