import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ErrorList } from "./fields";

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
