import { CHROMIUM_PATH, PARTITIONED_STORAGE_ARGS } from "./chromium";
import { expect, test } from "./fixtures";

// Inside the learning site's frame, in a browser that gives the frame storage of its own.
test.use({ launchOptions: { executablePath: CHROMIUM_PATH, args: PARTITIONED_STORAGE_ARGS } });

test("a state kept from an earlier hand-off signs the member in again, signed, without cookies", async ({
  page,
  baseURL,
  signInFrame,
}) => {
  await signInFrame("member");
  const recheck = page.waitForRequest((r) => r.url().includes("/api/login/recheck"));
  await page.goto(`${process.env.E2E_LEARNING_SITE}/frame?src=${encodeURIComponent(`${baseURL}/lrm`)}`);
  const signed = await recheck;
  expect(signed.headers()["state-sig"]).toMatch(/^[0-9a-f]{64}$/);
  expect(signed.headers().cookie).toBeUndefined();
  expect((await signed.response())?.status()).toBe(200);
  await expect(page.frameLocator("iframe").getByTestId("frame-username")).toHaveText("member");
});
