import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import {
  CheckboxField,
  checkboxGroupProps,
  ErrorList,
  Field,
  FormErrors,
  formProps,
  PlainField,
  SelectField,
  TextareaField,
  useServerForm,
  type FormResult,
} from "./fields";
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

describe("the fields of a form", () => {
  type Fields = {
    name: string;
    email: string;
    country: string;
    about: string;
    agreed: string;
    plans: string[];
    address: { city: string };
  };
  /** A form of every kind of field the pages draw, one control per line. */
  function render(lastResult?: FormResult, id: string | null = "join") {
    function Join() {
      const [form, fields] = useServerForm<Fields>({
        id: id ?? undefined,
        lastResult,
        defaultValue: { name: "Jo", country: "no", agreed: "on", plans: ["monthly"], address: { city: "Oslo" } },
      });
      return (
        <form {...formProps(form)}>
          <FormErrors form={form} />
          <Field meta={fields.name} label="Name" />
          <Field meta={fields.email} type="email" label="E-mail" hint="We write to it." />
          <SelectField meta={fields.country} label="Country">
            <option value="no">Norway</option>
          </SelectField>
          <TextareaField meta={fields.about} label="About" hint="A line." />
          <CheckboxField meta={fields.agreed} label="I agree" />
          {checkboxGroupProps(fields.plans, ["monthly", "annual"]).map(({ key, ...props }) => (
            <input key={key} {...props} />
          ))}
          <Field meta={fields.address.getFieldset().city!} label="City" />
        </form>
      );
    }
    return renderToString(<Join />)
      .replace(/></g, ">\n<")
      .split("\n")
      .filter((line) => /^<(form|input|select|textarea|option|p|div id)/.test(line));
  }
  const refused: FormResult = {
    status: "error",
    // What the server sends back: the values as sent, an empty one left out.
    initialValue: { name: "J", email: "j@", plans: "annual", address: {} },
    error: {
      name: ["Too short"],
      email: ["Enter a valid e-mail address"],
      country: ["Choose a country"],
      about: ["Too long"],
      agreed: ["Agree to the terms"],
      plans: ["Choose a plan"],
      "address.city": ["Enter a city"],
      "": ["Check the form"],
    },
  };

  it("names each control by the form and its name, starting with the form's first values", () => {
    expect(render()).toEqual([
      '<form id="join" novalidate="">',
      '<input id="join-name" name="name" form="join" type="text" value="Jo"/>',
      '<p id="join-email-description" class="field-hint">We write to it.</p>',
      '<input id="join-email" name="email" form="join" aria-describedby="join-email-description" type="email"/>',
      '<select id="join-country" name="country" form="join">',
      '<option value="no" selected="">Norway</option>',
      '<p id="join-about-description" class="field-hint">A line.</p>',
      '<textarea id="join-about" name="about" form="join" aria-describedby="join-about-description">',
      '<input id="join-agreed" name="agreed" form="join" type="checkbox" checked="" value="on"/>',
      '<input id="join-plans-monthly" name="plans" form="join" type="checkbox" checked="" value="monthly"/>',
      '<input id="join-plans-annual" name="plans" form="join" type="checkbox" value="annual"/>',
      '<input id="join-address.city" name="address.city" form="join" type="text" value="Oslo"/>',
    ]);
  });

  it("shows the action's answer: each error beside its field, named first by the field, and the values sent", () => {
    expect(render(refused)).toEqual([
      '<form id="join" novalidate="" aria-describedby="join-error">',
      '<div id="join-error" class="alert alert-error" role="alert">Check the form</div>',
      '<input id="join-name" name="name" form="join" aria-invalid="true" aria-describedby="join-name-error" type="text" value="J"/>',
      '<p id="join-name-error" class="field-error">Too short</p>',
      '<p id="join-email-description" class="field-hint">We write to it.</p>',
      '<input id="join-email" name="email" form="join" aria-invalid="true" aria-describedby="join-email-error join-email-description" type="email" value="j@"/>',
      '<p id="join-email-error" class="field-error">Enter a valid e-mail address</p>',
      '<select id="join-country" name="country" form="join" aria-invalid="true" aria-describedby="join-country-error">',
      '<option value="no">Norway</option>',
      '<p id="join-country-error" class="field-error">Choose a country</p>',
      '<p id="join-about-description" class="field-hint">A line.</p>',
      '<textarea id="join-about" name="about" form="join" aria-invalid="true" aria-describedby="join-about-error join-about-description">',
      '<p id="join-about-error" class="field-error">Too long</p>',
      '<input id="join-agreed" name="agreed" form="join" aria-invalid="true" aria-describedby="join-agreed-error" type="checkbox" value="on"/>',
      '<p id="join-agreed-error" class="field-error">Agree to the terms</p>',
      '<input id="join-plans-monthly" name="plans" form="join" aria-invalid="true" aria-describedby="join-plans-error" type="checkbox" value="monthly"/>',
      '<input id="join-plans-annual" name="plans" form="join" aria-invalid="true" aria-describedby="join-plans-error" type="checkbox" checked="" value="annual"/>',
      '<input id="join-address.city" name="address.city" form="join" aria-invalid="true" aria-describedby="join-address.city-error" type="text"/>',
      '<p id="join-address.city-error" class="field-error">Enter a city</p>',
    ]);
  });

  it("checks each box of a name whose values hold it, and a lone box sent as on", () => {
    const sent: FormResult = { status: "error", initialValue: { agreed: "on", plans: ["monthly", "annual"] } };
    const boxes = render(sent).filter((line) => line.includes('type="checkbox"'));
    expect(boxes).toHaveLength(3);
    for (const box of boxes) expect(box).toContain('checked=""');
  });

  it("names a form without an id of its own by React's id for its component (the same when the page hydrates)", () => {
    const [form, name] = render(undefined, null);
    const id = form?.match(/^<form id="([^"]+)"/)?.[1];
    expect(id).toMatch(/^:R[0-9a-z]*:$/);
    expect(name).toContain(`id="${id}-name" name="name" form="${id}"`);
  });
});

describe("RadioField", () => {
  function render(lastResult?: FormResult) {
    function Plans() {
      const [, fields] = useServerForm<{ planId: string }>({
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
