import { describe, expect, it } from "vitest";
import { DomainError } from "~/domain/errors";
import { parseJsonText, refuseNulInJsonText } from "./json-body.server";

const REFUSED = "A NUL character (U+0000) cannot be stored: leave it out";

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError)
      return { status: error.status, message: error.message, fields: error.fieldErrors };
    throw error;
  }
  return null;
};

describe("a JSON body holding a NUL character", () => {
  it("is invalid, naming the path of each text or key that holds it", () => {
    expect(refusal(() => parseJsonText(JSON.stringify([{ href: "/", message: "a\u0000" }])))).toEqual({
      status: 400,
      message: `${REFUSED} of 0.message`,
      fields: { "0.message": [REFUSED] },
    });
    expect(refusal(() => parseJsonText(JSON.stringify({ data: { "k\u0000": 1 } })))).toMatchObject({
      fields: { data: [REFUSED] },
    });
    expect(refusal(() => parseJsonText('"\\u0000"'))).toMatchObject({
      message: `${REFUSED} of the body`,
      fields: { body: [REFUSED] },
    });
  });

  it("is read as it is when its text only looks like one", () => {
    expect(parseJsonText(JSON.stringify({ a: "100%00", b: "\\u0000" }))).toEqual({ a: "100%00", b: "\\u0000" });
  });

  it("is refused the same when a webhook reads its raw text itself; text that is no JSON is left to its reader", () => {
    const signedBody = JSON.stringify({ event: "transaction.completed", data: { detailed_status: "x\u0000" } });
    expect(refusal(() => refuseNulInJsonText(signedBody))).toMatchObject({
      status: 400,
      fields: { "data.detailed_status": [REFUSED] },
    });
    expect(refusal(() => refuseNulInJsonText("not json \u0000"))).toBeNull();
    expect(refusal(() => refuseNulInJsonText(JSON.stringify({ fine: true })))).toBeNull();
  });
});
