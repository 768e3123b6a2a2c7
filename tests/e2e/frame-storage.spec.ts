import { CHROMIUM_PATH, PARTITIONED_STORAGE_ARGS } from "./chromium";
import { expect, test } from "./fixtures";

test("inside the frame, a state kept from an earlier hand-off signs the member in again, signed, without cookies", async ({
  playwright,
  baseURL,
  signInFrame,
}) => {
  // A browser that gives the learning site's frame storage of its own, launched here rather
  // than through a worker of its own, which would wait for the rest of the run.
  const browser = await playwright.chromium.launch({ executablePath: CHROMIUM_PATH, args: PARTITIONED_STORAGE_ARGS });
  try {
    const page = await (await browser.newContext({ baseURL })).newPage();
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));

    await signInFrame("member", page);
    const recheck = page.waitForRequest((r) => r.url().includes("/api/login/recheck"));
    await page.goto(`${process.env.E2E_LEARNING_SITE}/frame?src=${encodeURIComponent(`${baseURL}/lrm`)}`);
    const signed = await recheck;
    expect(signed.headers()["state-sig"]).toMatch(/^[0-9a-f]{64}$/);
    expect(signed.headers().cookie).toBeUndefined();
    expect((await signed.response())?.status()).toBe(200);
    await expect(page.frameLocator("iframe").getByTestId("frame-username")).toHaveText("member");
    expect(errors, "browser console errors").toEqual([]);
  } finally {
    await browser.close();
  }
});
