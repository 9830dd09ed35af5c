// Contact changes as a resource (the service's #853, behind `contactChanges: "resource"`): core
// through the relay to the emulator over real HTTP. The create, the stamp-only submit, the resume
// by GET after a lost answer (the create's, the submit's), PROCESSING, the wait for an OTP
// credential add in flight, the typed outcomes, and the PATCH kept as the default.
import {
  addCredential,
  type ContactChangeJson,
  cancelContactChange,
  changeContact,
  type FetchFunction,
  listCredentials,
  SignetError,
} from "@signet/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInWithEmail } from "./support/signIn.js";
import { type Stack, startStack } from "./support/stack.js";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
let phones = 0;
const freshPhone = () =>
  `+1628${String(Date.now() % 1e4).padStart(4, "0")}${String(++phones).padStart(3, "0")}`;

/** A signed-in user whose client uses the resource (or `mode`). */
async function user(
  mode: "patch" | "resource" = "resource",
  extra: Record<string, unknown> = {},
  overrides: Parameters<Stack["client"]>[1] = {},
) {
  const signedUp = await stack.signUp(undefined, extra);
  const { client, events } = stack.client(signedUp.customerId, {
    contactChanges: mode,
    ...overrides,
  });
  await signInWithEmail(client, signedUp.emailCredentialId);
  return { ...signedUp, client, events };
}

/** A pending EMAIL change made by the platform (the app's backend), as the service answers it. */
const createChange = (customerId: string, email: string) =>
  stack.platform<ContactChangeJson>("POST", `/customers/${customerId}/contact-changes`, {
    type: "EMAIL",
    value: email,
  });

const contactRequests = async (customerId: string) =>
  (await stack.requests()).filter((r) =>
    r.path.includes(`/customers/${customerId}/contact-changes`),
  );

describe('changeContact with contactChanges: "resource"', () => {
  it("creates the change, stamps its payload and submits the stamp only; the OTP credential follows", async () => {
    const u = await user();
    const email = `moved-${unique()}@example.com`;
    const seen: ContactChangeJson["status"][] = [];
    const outcome = await changeContact(u.client, {
      customerId: u.customerId,
      accountId: u.accountId,
      email,
      onChange: (change) => seen.push(change.status),
    });
    expect(outcome).toMatchObject({ via: "resource", status: "APPLIED" });
    expect(outcome.via === "resource" && outcome.change.value).toBe(email);
    expect(seen).toEqual(["AWAITING_SIGNATURE", "APPLIED"]);
    const credentials = await listCredentials(u.client, { accountId: u.accountId });
    expect(credentials.find((c) => c.id === u.emailCredentialId)?.nickname).toBe(email);
    const sent = await contactRequests(u.customerId);
    expect(sent.map((r) => `${r.method} ${r.path.replace(/ContactChange:[^/]+/, "{id}")}`)).toEqual(
      [
        `POST /customers/${u.customerId}/contact-changes`,
        // The relay's ownership lookup of the change id in the submit's path.
        `GET /customers/${u.customerId}/contact-changes/{id}`,
        `POST /customers/${u.customerId}/contact-changes/{id}/submit`,
      ],
    );
    // #853: the submit carries the stamp, and neither a Request-Id nor an Idempotency-Key.
    const submit = sent[2]!;
    expect(submit.hasSignature).toBe(true);
    expect(submit.hasRequestId ?? false).toBe(false);
    expect(submit.hasIdempotencyKey ?? false).toBe(false);
  });

  it("a contact with no OTP credential behind it is applied on create: nothing to sign", async () => {
    const u = await user();
    const phoneNumber = freshPhone();
    const outcome = await changeContact(u.client, {
      customerId: u.customerId,
      accountId: u.accountId,
      phoneNumber,
    });
    expect(outcome).toMatchObject({ via: "resource", status: "APPLIED" });
    expect((await contactRequests(u.customerId)).map((r) => r.method)).toEqual(["POST"]);
  });

  it("resumes after the create's answer is lost: the repeat is refused as pending, the change read back by GET", async () => {
    const u = await user();
    const email = `resumed-${unique()}@example.com`;
    await stack.fault({
      match: { method: "POST", path: `/customers/${u.customerId}/contact-changes` },
      kind: "drop_after",
    });
    const outcome = await changeContact(u.client, {
      customerId: u.customerId,
      accountId: u.accountId,
      email,
    });
    expect(outcome).toMatchObject({ via: "resource", status: "APPLIED" });
    const sent = await contactRequests(u.customerId);
    expect(sent.map((r) => `${r.method} ${r.status} ${r.fault ?? ""}`.trim())).toEqual([
      "POST 202 drop_after",
      "POST 409",
      // The relay's ownership lookup of the change it names, then the device's read.
      "GET 200",
      "GET 200",
      "POST 200",
    ]);
  });

  it("resumes a change the device kept the id of (GET, then the submit)", async () => {
    const u = await user();
    const email = `kept-${unique()}@example.com`;
    const created = await createChange(u.customerId, email);
    expect(created.status).toBe(202);
    const outcome = await changeContact(u.client, {
      customerId: u.customerId,
      accountId: u.accountId,
      email,
      changeId: created.body.id,
    });
    expect(outcome).toMatchObject({ via: "resource", status: "APPLIED" });
    expect(outcome.via === "resource" && outcome.change.id).toBe(created.body.id);
  });

  it("a submit whose answer was lost is settled by reading the change, not by signing again", async () => {
    const u = await user();
    const email = `lost-${unique()}@example.com`;
    const created = await createChange(u.customerId, email);
    await stack.fault({
      match: {
        method: "POST",
        path: `/customers/${u.customerId}/contact-changes/${created.body.id}/submit`,
      },
      kind: "drop_after",
    });
    const outcome = await changeContact(u.client, {
      customerId: u.customerId,
      accountId: u.accountId,
      email,
      changeId: created.body.id,
      retry: false,
    });
    expect(outcome).toMatchObject({ via: "resource", status: "APPLIED" });
    const sent = await contactRequests(u.customerId);
    expect(sent.map((r) => `${r.method} ${r.fault ?? r.status}`)).toEqual([
      "POST 202",
      // The relay's ownership lookup (then remembered), the device's read, the submit, the read
      // that settles the lost answer.
      "GET 200",
      "GET 200",
      "POST drop_after",
      "GET 200",
    ]);
  });

  it("a lost submit whose reading GET is itself lost once still ends APPLIED, applied once", async () => {
    const u = await user();
    const email = `lost-twice-${unique()}@example.com`;
    const created = await createChange(u.customerId, email);
    const change = `/customers/${u.customerId}/contact-changes/${created.body.id}`;
    // The relay's ownership GET and the device's first read pass (a delay of 0 uses them up);
    // the submit acts and its answer is lost; the GET that would settle it is lost too (dropped
    // before the emulator reads anything).
    await stack.fault({ match: { method: "GET", path: change }, kind: "delay", ms: 0, count: 2 });
    await stack.fault({ match: { method: "POST", path: `${change}/submit` }, kind: "drop_after" });
    await stack.fault({ match: { method: "GET", path: change }, kind: "drop" });
    const outcome = await changeContact(u.client, {
      customerId: u.customerId,
      accountId: u.accountId,
      email,
      changeId: created.body.id,
      // No re-send of the submit: the lost answer is settled by reading the change.
      retry: false,
    });
    expect(outcome).toMatchObject({ via: "resource", status: "APPLIED" });
    expect(outcome.via === "resource" && outcome.change.id).toBe(created.body.id);
    const sent = await contactRequests(u.customerId);
    expect(sent.map((r) => `${r.method} ${r.fault ?? r.status}`)).toEqual([
      "POST 202",
      "GET delay",
      "GET delay",
      // Applied here, its answer lost; the read that settles it lost too, then read again. One
      // submit: nothing signed or applied twice.
      "POST drop_after",
      "GET drop",
      "GET 200",
    ]);
    const credentials = await listCredentials(u.client, { accountId: u.accountId });
    expect(credentials.find((c) => c.id === u.emailCredentialId)?.nickname).toBe(email);
    const read = await stack.platform<ContactChangeJson>("GET", change);
    expect(read.body.status).toBe("APPLIED");
  });

  describe("the settling GET meets a fault too, under the default retry policy", () => {
    /** A signed-in client of a new customer with a change awaiting its signature. */
    async function awaiting(label: string, pageFetch?: FetchFunction) {
      const signedUp = await stack.signUp();
      const email = `${label}-${unique()}@example.com`;
      const created = await stack.platform<{ id: string }>(
        "POST",
        `/customers/${signedUp.customerId}/contact-changes`,
        { type: "EMAIL", value: email },
      );
      const { client } = stack.client(signedUp.customerId, {
        contactChanges: "resource",
        // The library's default policy (the stack's clients pin a short backoff).
        signedRequests: undefined,
        ...(pageFetch ? { fetch: pageFetch } : {}),
      });
      await signInWithEmail(client, signedUp.emailCredentialId);
      const change = `/customers/${signedUp.customerId}/contact-changes/${created.body.id}`;
      return { ...signedUp, client, email, changeId: created.body.id, change };
    }

    /** The change APPLIED at the service, its credential renamed once. */
    async function expectAppliedOnce(u: Awaited<ReturnType<typeof awaiting>>) {
      const read = await stack.platform<ContactChangeJson>("GET", u.change);
      expect(read.body.status).toBe("APPLIED");
      const credentials = await stack.platform<{ data: { id: string; nickname?: string }[] }>(
        "GET",
        `/auth/credentials?accountId=${u.accountId}`,
      );
      expect(credentials.body.data.find((c) => c.id === u.emailCredentialId)?.nickname).toBe(
        u.email,
      );
    }

    const shortLog = async (customerId: string) =>
      (await contactRequests(customerId)).map(
        (r) => `${r.method}${r.path.endsWith("/submit") ? " submit" : ""} ${r.fault ?? r.status}`,
      );

    it("device → relay: the submit's answer lost at the device and its re-sends cut, then the settling GET's answer lost once: read again, APPLIED, one submit", async () => {
      // The page's own fetch: the first submit reaches the service (which applies it) and its
      // answer is lost; every re-send of it fails before the relay (the policy's retries spent);
      // the first GET after the submit is answered by the service and never heard.
      const faults: string[] = [];
      let submits = 0;
      const pageFetch: FetchFunction = async (input, init) => {
        const method = String(init?.method ?? "GET");
        const path = new URL(input).pathname;
        const isSubmit = method === "POST" && path.endsWith("/submit");
        if (isSubmit && ++submits > 1) {
          faults.push("submit cut");
          throw new TypeError("fetch failed (injected: the relay was not reached)");
        }
        const loses =
          isSubmit ||
          (method === "GET" &&
            submits > 0 &&
            path.includes("/contact-changes/") &&
            !faults.includes("GET lost"));
        const response = await fetch(input, init);
        if (!loses) return response;
        faults.push(isSubmit ? "submit lost" : "GET lost");
        await response.arrayBuffer();
        throw new TypeError("fetch failed (injected: the relay's answer was lost)");
      };
      const u = await awaiting("device-lost", pageFetch);
      await stack.clearRequests();
      const outcome = await changeContact(u.client, {
        customerId: u.customerId,
        accountId: u.accountId,
        email: u.email,
        changeId: u.changeId,
      });
      expect(outcome).toMatchObject({ via: "resource", status: "APPLIED" });
      expect(outcome.via === "resource" && outcome.change.id).toBe(u.changeId);
      // One send and the policy's three re-sends of the submit; the settling GET lost once.
      expect(faults).toEqual(["submit lost", "submit cut", "submit cut", "submit cut", "GET lost"]);
      // The service: the relay's ownership lookup, the device's first read, the one submit, the
      // settling read lost on its way back, then read again.
      expect(await shortLog(u.customerId)).toEqual([
        "GET 200",
        "GET 200",
        "POST submit 200",
        "GET 200",
        "GET 200",
      ]);
      await expectAppliedOnce(u);
    });

    it("relay → service: the submit's answer lost on every send, then the settling GET answered 500 once: read again, APPLIED, applied once", async () => {
      const u = await awaiting("service-lost");
      await stack.clearRequests();
      // One send and the policy's three re-sends, each answer lost after the service answered
      // (the first applies; an applied change answers itself again, unchanged); the read that
      // settles it meets a 5xx once (a 5xx, not a drop: the relay's fetch re-sends a GET on a
      // cut pooled connection by itself).
      await stack.fault({
        match: { method: "POST", path: `${u.change}/submit` },
        kind: "drop_after",
        count: 4,
      });
      // The relay's ownership lookup and the device's first read pass (a delay of 0 uses them
      // up); the settling read after the submits meets the 500.
      await stack.fault({
        match: { method: "GET", path: u.change },
        kind: "delay",
        ms: 0,
        count: 2,
      });
      await stack.fault({ match: { method: "GET", path: u.change }, kind: "error" });
      const outcome = await changeContact(u.client, {
        customerId: u.customerId,
        accountId: u.accountId,
        email: u.email,
        changeId: u.changeId,
      });
      expect(outcome).toMatchObject({ via: "resource", status: "APPLIED" });
      expect(await shortLog(u.customerId)).toEqual([
        "GET delay",
        "GET delay",
        "POST submit drop_after",
        "POST submit drop_after",
        "POST submit drop_after",
        "POST submit drop_after",
        "GET error",
        "GET 200",
      ]);
      await expectAppliedOnce(u);
    });
  });

  it("re-sends the identical submit while it answers PROCESSING", async () => {
    const u = await user();
    const email = `slow-${unique()}@example.com`;
    await stack.fault({
      match: { method: "POST", path: `/customers/${u.customerId}/contact-changes/` },
      kind: "processing",
      count: 2,
    });
    const outcome = await changeContact(u.client, {
      customerId: u.customerId,
      accountId: u.accountId,
      email,
    });
    expect(outcome).toMatchObject({ via: "resource", status: "APPLIED" });
    const submits = (await contactRequests(u.customerId)).filter((r) => r.path.endsWith("/submit"));
    expect(submits.map((r) => r.fault ?? "answered")).toEqual([
      "processing",
      "processing",
      "answered",
    ]);
    const stages = u.events.flatMap((e) => (e.type === "signedRequest" ? [e.stage] : []));
    expect(stages).toContain("processing");
  });

  it("a settling read that hangs is cut at the wait's end: the retryable PROCESSING_TIMEOUT, within the budget", async () => {
    // The backoff between the settling reads at half its ceiling, every run alike.
    const u = await user("resource", {}, { random: () => 0.5 });
    const email = `held-${unique()}@example.com`;
    const changes = `/customers/${u.customerId}/contact-changes/`;
    // The submit answered PROCESSING, and the device stopped there: the change is PROCESSING.
    await stack.fault({ match: { method: "POST", path: changes }, kind: "processing" });
    const stop = new AbortController();
    let changeId = "";
    const stopped = await changeContact(u.client, {
      customerId: u.customerId,
      accountId: u.accountId,
      email,
      signal: stop.signal,
      onChange: (change) => {
        changeId = change.id;
      },
      onEvent: (event) => {
        if (event.type === "signedRequest" && event.stage === "processing") stop.abort();
      },
    }).catch((e) => e);
    expect(stopped.code).toBe("ABORTED");
    // Resumed by its id: the service has not reconciled it yet, so every read finds it
    // PROCESSING; the resume's read and the wait's first are answered at once, the wait's second
    // gets no answer for 20 s. The wait's budget is the retry policy's timeoutMs, 1.5 s here.
    const match = { method: "GET", path: `${changes}${changeId}` };
    await stack.fault({ match, kind: "processing", count: 3 });
    await stack.fault({ match, kind: "delay", ms: 0, count: 2 });
    await stack.fault({ match, kind: "delay", ms: 20_000 });
    const seen: ContactChangeJson["status"][] = [];
    const started = performance.now();
    const error = await changeContact(u.client, {
      customerId: u.customerId,
      accountId: u.accountId,
      email,
      changeId,
      retry: { timeoutMs: 1_500 },
      onChange: (change) => seen.push(change.status),
    }).catch((e) => e);
    const took = performance.now() - started;
    expect(error).toBeInstanceOf(SignetError);
    expect(error.code).toBe("PROCESSING_TIMEOUT");
    expect(error.retryable).toBe(true);
    expect(error.details).toEqual({ operation: "changeContact", polls: 2 });
    // Only what was read is told: the resume's read and the wait's first, never the cut one.
    expect(seen).toEqual(["PROCESSING", "PROCESSING"]);
    // Every delay was taken: the held read reached the service, its answer 20 s away.
    const armed = (await (await fetch(`${stack.emulator.url}/_emulator/faults`)).json()) as {
      data: { kind: string; match?: { path?: string } }[];
    };
    expect(armed.data.filter((f) => f.match?.path === match.path)).toEqual([
      expect.objectContaining({ kind: "processing", remaining: 1 }),
    ]);
    // The budget, with room for a loaded machine; far below the held read's 20 s.
    expect(took).toBeLessThan(1_500 + 1_500);
  }, 40_000);

  it("waits out an SMS credential add in flight (409 AUTH_CREDENTIAL_OPERATION_IN_FLIGHT), then changes the phone", async () => {
    const phoneNumber = freshPhone();
    // Deterministic waits: each backoff is 99% of its ceiling.
    const u = await user(
      "resource",
      { phoneNumber },
      { random: () => 0.99, retry: { retryCount: 20, backoff: { baseMs: 40, maxMs: 80 } } },
    );
    const { client: adder } = stack.client(u.customerId, {
      random: () => 0.99,
      retry: { backoff: { baseMs: 150, maxMs: 300 } },
    });
    await signInWithEmail(adder, u.emailCredentialId);
    // The add is answered PROCESSING three times: submitted, not settled, for a few hundred ms.
    await stack.fault({
      match: { method: "POST", path: "/auth/credentials" },
      kind: "processing",
      count: 3,
    });
    const adding = addCredential(adder, { accountId: u.accountId, type: "SMS_OTP", phoneNumber });
    // Start the change once the add has been submitted (its first PROCESSING answer).
    for (let i = 0; i < 100; i++) {
      const log = await stack.requests();
      if (log.some((r) => r.path.endsWith("/auth/credentials") && r.fault === "processing")) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const next = freshPhone();
    const outcome = await changeContact(u.client, {
      customerId: u.customerId,
      accountId: u.accountId,
      phoneNumber: next,
    });
    const added = await adding;
    expect(outcome).toMatchObject({ via: "resource", status: "APPLIED" });
    const waits = u.events.filter(
      (e) => e.type === "retry" && e.code === "AUTH_CREDENTIAL_OPERATION_IN_FLIGHT",
    );
    expect(waits.length).toBeGreaterThan(0);
    // The change waited for the add, so it re-keyed the new SMS credential too.
    const credentials = await listCredentials(u.client, { accountId: u.accountId });
    expect(credentials.find((c) => c.id === added.id)?.nickname).toBe(next);
  });

  it("the in-flight 409 is passed on once the retry policy's count is spent", async () => {
    const phoneNumber = freshPhone();
    const u = await user(
      "resource",
      { phoneNumber },
      { retry: { retryCount: 1, backoff: { baseMs: 1, maxMs: 1 } } },
    );
    await stack.fault({
      match: { method: "POST", path: `/customers/${u.customerId}/contact-changes` },
      kind: "error",
      status: 409,
      code: "AUTH_CREDENTIAL_OPERATION_IN_FLIGHT",
      count: 2,
    });
    const error = await changeContact(u.client, {
      customerId: u.customerId,
      accountId: u.accountId,
      phoneNumber: freshPhone(),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignetError);
    expect((error as SignetError).code).toBe("AUTH_CREDENTIAL_OPERATION_IN_FLIGHT");
    expect((await contactRequests(u.customerId)).length).toBe(2);
  });

  it("waits out the submit's 409 AUTH_CREDENTIAL_OPERATION_IN_FLIGHT, then applies it once", async () => {
    const u = await user(
      "resource",
      {},
      { random: () => 0.99, retry: { retryCount: 3, backoff: { baseMs: 20, maxMs: 40 } } },
    );
    const email = `inflight-${unique()}@example.com`;
    await stack.fault({
      match: { method: "POST", path: `/customers/${u.customerId}/contact-changes/` },
      kind: "error",
      status: 409,
      code: "AUTH_CREDENTIAL_OPERATION_IN_FLIGHT",
      count: 2,
    });
    const outcome = await changeContact(u.client, {
      customerId: u.customerId,
      accountId: u.accountId,
      email,
    });
    expect(outcome).toMatchObject({ via: "resource", status: "APPLIED" });
    const submits = (await contactRequests(u.customerId)).filter((r) => r.path.endsWith("/submit"));
    expect(submits.map((r) => `${r.status} ${r.code ?? ""}`.trim())).toEqual([
      "409 AUTH_CREDENTIAL_OPERATION_IN_FLIGHT",
      "409 AUTH_CREDENTIAL_OPERATION_IN_FLIGHT",
      "200",
    ]);
    const waits = u.events.filter(
      (e) => e.type === "retry" && e.code === "AUTH_CREDENTIAL_OPERATION_IN_FLIGHT",
    );
    expect(waits.map((e) => e.type === "retry" && e.path.endsWith("/submit"))).toEqual([
      true,
      true,
    ]);
    const credentials = await listCredentials(u.client, { accountId: u.accountId });
    expect(credentials.find((c) => c.id === u.emailCredentialId)?.nickname).toBe(email);
  });

  it("a change cancelled meanwhile is a typed outcome (CANCELLED), never signed", async () => {
    const u = await user();
    const email = `expired-${unique()}@example.com`;
    const created = await createChange(u.customerId, email);
    await stack.platform("DELETE", `/customers/${u.customerId}/contact-changes/${created.body.id}`);
    const outcome = await changeContact(u.client, {
      customerId: u.customerId,
      accountId: u.accountId,
      email,
      changeId: created.body.id,
    });
    expect(outcome).toMatchObject({ via: "resource", status: "CANCELLED" });
    expect((await contactRequests(u.customerId)).some((r) => r.path.endsWith("/submit"))).toBe(
      false,
    );
  });

  it("refuses to carry on another value's pending change: the 409 is passed on", async () => {
    const u = await user();
    await createChange(u.customerId, `other-${unique()}@example.com`);
    const error = await changeContact(u.client, {
      customerId: u.customerId,
      accountId: u.accountId,
      email: `mine-${unique()}@example.com`,
    }).catch((e: unknown) => e);
    expect((error as SignetError).code).toBe("CONTACT_CHANGE_PENDING");
    expect((error as SignetError<"CONTACT_CHANGE_PENDING">).details.contactChangeId).toMatch(
      /^ContactChange:/,
    );
  });
});

describe("cancelContactChange (#853's DELETE, not signed)", () => {
  it("cancels a change awaiting its signature: CANCELLED, and changeContact then never signs it", async () => {
    const u = await user();
    const email = `cancelled-${unique()}@example.com`;
    const change = (await createChange(u.customerId, email)).body;
    const cancelled = await cancelContactChange(u.client, {
      customerId: u.customerId,
      changeId: change.id,
    });
    expect(cancelled).toMatchObject({ id: change.id, status: "CANCELLED", value: email });
    const sent = await contactRequests(u.customerId);
    expect(sent.filter((r) => r.method === "DELETE").map((r) => r.status)).toEqual([200]);
    expect(sent.every((r) => !r.hasSignature)).toBe(true);
    const outcome = await changeContact(u.client, {
      customerId: u.customerId,
      accountId: u.accountId,
      email,
      changeId: change.id,
    });
    expect(outcome).toMatchObject({ via: "resource", status: "CANCELLED" });
    expect((await contactRequests(u.customerId)).some((r) => r.path.endsWith("/submit"))).toBe(
      false,
    );
  });

  it("a cancel whose answer was lost is read back CANCELLED", async () => {
    const u = await user();
    const change = (await createChange(u.customerId, `lost-cancel-${unique()}@example.com`)).body;
    await stack.fault({
      match: { method: "DELETE", path: `/customers/${u.customerId}/contact-changes/${change.id}` },
      kind: "drop_after",
    });
    const cancelled = await cancelContactChange(u.client, {
      customerId: u.customerId,
      changeId: change.id,
    });
    expect(cancelled.status).toBe("CANCELLED");
    const deletes = (await contactRequests(u.customerId)).filter((r) => r.method === "DELETE");
    expect(deletes.map((r) => r.fault ?? String(r.status))).toEqual(["drop_after", "409"]);
  });

  it("an applied change is not cancelled: the service's 409 is passed on, typed", async () => {
    const u = await user();
    const outcome = await changeContact(u.client, {
      customerId: u.customerId,
      accountId: u.accountId,
      email: `applied-${unique()}@example.com`,
    });
    const changeId = outcome.via === "resource" ? outcome.change.id : "";
    const error = await cancelContactChange(u.client, { customerId: u.customerId, changeId }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SignetError);
    expect((error as SignetError).code).toBe("CONTACT_CHANGE_NOT_AWAITING_SIGNATURE");
    const read = await stack.platform<ContactChangeJson>(
      "GET",
      `/customers/${u.customerId}/contact-changes/${changeId}`,
    );
    expect(read.body.status).toBe("APPLIED");
  });

  it("another customer's change: the relay refuses it, nothing is cancelled", async () => {
    const owner = await user();
    const change = (await createChange(owner.customerId, `theirs-${unique()}@example.com`)).body;
    const other = await user();
    for (const customerId of [owner.customerId, other.customerId]) {
      const error = await cancelContactChange(other.client, {
        customerId,
        changeId: change.id,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SignetError);
    }
    expect((await contactRequests(owner.customerId)).some((r) => r.method === "DELETE")).toBe(
      false,
    );
    expect((await contactRequests(other.customerId)).some((r) => r.method === "DELETE")).toBe(
      false,
    );
    const read = await stack.platform<ContactChangeJson>(
      "GET",
      `/customers/${owner.customerId}/contact-changes/${change.id}`,
    );
    expect(read.body.status).toBe("AWAITING_SIGNATURE");
  });
});

describe("changeContact with the default switch", () => {
  it("sends the PATCH, as updateCustomerContact does", async () => {
    const u = await user("patch");
    const email = `patched-${unique()}@example.com`;
    const outcome = await changeContact(u.client, {
      customerId: u.customerId,
      accountId: u.accountId,
      email,
    });
    expect(outcome).toMatchObject({ via: "patch", status: "APPLIED" });
    expect(outcome.via === "patch" && outcome.customer.email).toBe(email);
    expect(await contactRequests(u.customerId)).toEqual([]);
  });
});

// Last in the file: the second case moves the emulator's clock on for the rest of it.
describe("the local expiresAt check: a change past its deadline is read before it is signed", () => {
  /** A user whose device clock jumps `jumpMs` once the change is first seen awaiting its signature. */
  async function jumping(jumpMs: number, beforeRead?: () => Promise<void>) {
    let offset = 0;
    let read = false;
    const u = await user(
      "resource",
      {},
      {
        clock: { now: () => Date.now() + offset },
        fetch: async (input, init) => {
          const url = String(input);
          if (
            offset > 0 &&
            !read &&
            (init?.method ?? "GET") === "GET" &&
            url.includes("/contact-changes/")
          ) {
            read = true;
            await beforeRead?.();
          }
          return fetch(input, init);
        },
      },
    );
    const jump = (change: ContactChangeJson) => {
      if (change.status === "AWAITING_SIGNATURE" && offset === 0) offset = jumpMs;
    };
    return { u, jump };
  }

  it("the device's clock past expiresAt, the service's not: read back, still awaiting, signed as read", async () => {
    const { u, jump } = await jumping(6 * 60_000);
    const email = `late-${unique()}@example.com`;
    const outcome = await changeContact(u.client, {
      customerId: u.customerId,
      accountId: u.accountId,
      email,
      onChange: jump,
    });
    expect(outcome).toMatchObject({ via: "resource", status: "APPLIED" });
    expect((await contactRequests(u.customerId)).map((r) => `${r.method} ${r.status}`)).toEqual([
      "POST 202",
      // The relay's ownership lookup, then the device's read after its clock passed the deadline.
      "GET 200",
      "GET 200",
      "POST 200",
    ]);
  });

  it("both clocks past expiresAt: the change is read back EXPIRED and never signed", async () => {
    const advanced = async () => {
      await fetch(`${stack.emulator.url}/_emulator/clock`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ advanceMs: 6 * 60_000 }),
      });
    };
    const { u, jump } = await jumping(6 * 60_000, advanced);
    const outcome = await changeContact(u.client, {
      customerId: u.customerId,
      accountId: u.accountId,
      email: `expired-${unique()}@example.com`,
      onChange: jump,
    });
    const sent = await contactRequests(u.customerId);
    expect(outcome).toMatchObject({ via: "resource", status: "EXPIRED" });
    expect(sent.some((r) => r.path.endsWith("/submit"))).toBe(false);
    expect(
      u.events.some((e) => e.type === "signedRequest" && e.operation === "changeContact"),
    ).toBe(false);
  });
});
