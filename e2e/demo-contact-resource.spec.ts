// The contact screen with the client's `contactChanges: "resource"` (the demo server's
// DEMO_CONTACT_CHANGES=resource): a verified email change goes through the service's
// contact-change resource (its pull request #853: create, sign, submit), the page shows the
// change's status, and the new address signs in.
import {
  expect,
  freshEmail,
  openScreen,
  signInWithOtp,
  test,
  watchConsole,
} from "./demo/harness.js";

test.use({ demoOptions: { contactChanges: "resource" } });

test("an email change through the contact-change resource: created, signed, submitted, applied", async ({
  page,
  signUpAs,
}) => {
  const problems = watchConsole(page);
  const sent: string[] = [];
  page.on("response", (r) => {
    const path = new URL(r.url()).pathname;
    const patch = r.request().method() === "PATCH" && /\/api\/grid\/customers\/[^/]+$/.test(path);
    if (path.includes("/contact-changes") || patch)
      sent.push(
        `${r.request().method()} ${path.replace(/.*\/customers\/[^/]+/, "")} ${r.status()}`,
      );
  });
  await signUpAs("resource");
  await openScreen(page, "Contact");
  const next = freshEmail("moved-resource");
  await page.getByLabel("New email").fill(next);
  await page.getByRole("button", { name: "Send a code" }).click();
  await page.getByLabel(`Code sent to ${next}`).fill("000000");
  await expect(page.getByText("Saved and verified.")).toBeVisible();
  await expect(page.getByTestId("contact-change-status")).toHaveText("Contact change: applied");
  await expect(page.getByTestId("who")).toHaveText(next);
  // The resource, never the PATCH: the create (202, awaiting the signature), then the submit.
  expect(sent.map((s) => s.replace(/ContactChange:[^/]+/, "{id}"))).toEqual([
    "POST /contact-changes 202",
    "POST /contact-changes/{id}/submit 200",
  ]);
  // The new address signs in to the same wallet.
  await page.getByRole("button", { name: "Leave demo" }).click();
  await expect(page.getByRole("heading", { name: "Sign in to your wallet" })).toBeVisible();
  await page.getByLabel("Email").fill(next);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "Unlock your wallet" })).toBeVisible();
  await signInWithOtp(page, "000000");
  await expect(page.getByTestId("who")).toHaveText(next);
  expect(problems).toEqual([]);
});
