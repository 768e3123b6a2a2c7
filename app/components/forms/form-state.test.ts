import { describe, expect, it } from "vitest";
import { errorsOf, errorsShown, formValue, valueAt, valuesOf } from "./form-state";

describe("formValue", () => {
  it("keeps no empty text, list or object, but keeps a list's place for an empty item", () => {
    expect(formValue({ blank: "", list: [], nested: { city: "" }, items: ["a", ""] })).toEqual({
      items: ["a", undefined],
    });
    expect(formValue({ blank: "" })).toBeUndefined();
  });
});

describe("valueAt", () => {
  const values = { address: { city: "Oslo" }, plans: ["monthly", "annual"], name: "Jo" };

  it("finds a value by a field's name, nested or in a list", () => {
    expect(valueAt(values, "name")).toBe("Jo");
    expect(valueAt(values, "address.city")).toBe("Oslo");
    expect(valueAt(values, "plans[1]")).toBe("annual");
    expect(valueAt(values, "plans")).toEqual(["monthly", "annual"]);
  });

  it("finds nothing where there is nothing, an object's own methods included", () => {
    expect(valueAt(values, "address.street")).toBeUndefined();
    expect(valueAt(values, "name.length")).toBeUndefined();
    expect(valueAt(values, "constructor")).toBeUndefined();
    expect(valueAt(undefined, "name")).toBeUndefined();
  });
});

describe("valuesOf", () => {
  it("reads a form's data: nested names as objects, a name sent twice as a list, empty fields as nothing", () => {
    const data = new FormData();
    data.append("name", "Jo");
    data.append("address.city", "Oslo");
    data.append("address.street", "");
    data.append("plans", "monthly");
    data.append("plans", "annual");
    data.append("plans", "credit");
    data.append("note", "");
    expect(valuesOf(data)).toEqual({
      name: "Jo",
      address: { city: "Oslo" },
      plans: ["monthly", "annual", "credit"],
    });
  });
});

describe("errorsOf", () => {
  it("keeps the fields with a message, the form's own under the empty name", () => {
    expect(errorsOf({ name: ["Too short"], email: null, city: undefined, "": ["Check the form"] })).toEqual({
      name: ["Too short"],
      "": ["Check the form"],
    });
    expect(errorsOf(undefined)).toEqual({});
    expect(errorsOf(null)).toEqual({});
  });
});

describe("errorsShown", () => {
  const errors = {
    name: ["Enter your name"],
    email: ["Enter your e-mail address"],
    "address.city": ["Enter a city"],
    "plans[0]": ["Choose a plan"],
    "": ["Check the form"],
  };

  it("shows only the errors of the fields checked so far", () => {
    expect(errorsShown(errors, new Set(["name"]), ["name", "email"])).toEqual({ name: ["Enter your name"] });
    expect(errorsShown(errors, new Set(), ["name", "email"])).toEqual({});
  });

  it("shows the errors under a checked field's name: a nested object's, a list's", () => {
    const fields = ["name", "address", "plans"];
    expect(errorsShown(errors, new Set(["address", "plans"]), fields)).toEqual({
      "address.city": ["Enter a city"],
      "plans[0]": ["Choose a plan"],
    });
    // A name that only starts like a checked one is another field.
    expect(errorsShown({ "addressee.name": ["Enter a name"] }, new Set(["address"]), ["address"])).toEqual({});
  });
});
