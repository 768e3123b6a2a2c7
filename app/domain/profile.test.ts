import { describe, expect, it } from "vitest";
import { deviceOf, passwordFormSchema } from "./profile";

describe("profile rules", () => {
  it("names a device by its browser and system", () => {
    expect(
      deviceOf("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36"),
    ).toBe("Chrome on Linux");
    expect(
      deviceOf("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Safari/604.1"),
    ).toBe("Safari on iOS");
    expect(deviceOf("Mozilla/5.0 (Windows NT 10.0; rv:133.0) Gecko/20100101 Firefox/133.0")).toBe("Firefox on Windows");
    expect(deviceOf("curl/8.5")).toBe("curl/8.5");
    expect(deviceOf(null)).toBe("An unknown device");
  });

  it("asks for the current password and the new one twice", () => {
    const parsed = passwordFormSchema.safeParse({
      intent: "password",
      password: "a long new phrase",
      confirm: "other",
    });
    expect(parsed.success).toBe(false);
    const paths = parsed.error!.issues.map((i) => i.path.join("."));
    expect(paths).toContain("current");
  });
});
