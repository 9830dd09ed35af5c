// Who is who in the demo: customers keyed by their id, and the sign-in email that finds each. The
// email is only an index: the customer's own record at the service is the truth, so a verified
// email change moves the index to the new address (the same wallet signs in with it) and the old
// address no longer finds it. In memory, like the sessions (a real app keeps this in its database).
import type { DemoUser } from "./sessions.js";

export type Directory = {
  /** The customer an email signs in to, if any. */
  find(email: string): DemoUser | undefined;
  /** A new customer, found by `email` from now on. */
  add(email: string, user: DemoUser): void;
  /** The customer, by id. */
  get(customerId: string): DemoUser | undefined;
  /**
   * The service says `customerId`'s email is now `email`: the index follows it (the old address
   * finds nothing any more). Returns whether anything moved.
   */
  follow(customerId: string, email: string | undefined): boolean;
  /** A new email proved by a code for `customerId`, until the signed change lands. */
  expect(customerId: string, email: string): void;
  /** The customer that proved `email` and may now have it at the service, if any. */
  expected(email: string): string | undefined;
};

const MAX_CUSTOMERS = 100_000;

export function createDirectory(): Directory {
  const byId = new Map<string, DemoUser>();
  const byEmail = new Map<string, string>();
  const emailOf = new Map<string, string>();
  const proved = new Map<string, string>();
  const norm = (email: string) => email.trim().toLowerCase();
  return {
    find(email) {
      const id = byEmail.get(norm(email));
      return id === undefined ? undefined : byId.get(id);
    },
    add(email, user) {
      // Bounded: the oldest customer is forgotten first (its wallet stays at the service).
      if (byId.size >= MAX_CUSTOMERS) {
        const oldest = byId.keys().next().value;
        if (oldest !== undefined) {
          byId.delete(oldest);
          const old = emailOf.get(oldest);
          if (old !== undefined && byEmail.get(old) === oldest) byEmail.delete(old);
          emailOf.delete(oldest);
        }
      }
      byId.set(user.customerId, { ...user });
      byEmail.set(norm(email), user.customerId);
      emailOf.set(user.customerId, norm(email));
    },
    get: (customerId) => byId.get(customerId),
    follow(customerId, email) {
      if (email === undefined || !byId.has(customerId)) return false;
      const next = norm(email);
      const previous = emailOf.get(customerId);
      if (previous === next) return false;
      if (previous !== undefined && byEmail.get(previous) === customerId) byEmail.delete(previous);
      byEmail.set(next, customerId);
      emailOf.set(customerId, next);
      proved.delete(next);
      return true;
    },
    expect(customerId, email) {
      if (proved.size >= MAX_CUSTOMERS) proved.clear();
      proved.set(norm(email), customerId);
    },
    expected: (email) => proved.get(norm(email)),
  };
}
