// The one Proxy behind the relay's stand-ins (lazyHeaders.ts, lazyRequest.ts): an object that
// passes `instanceof` its class and answers some members at once, and builds the real object the
// first time anything else of it is read, written or asked about, then answers from it.

/** What `own` returns for a member it does not answer: the real object is built and asked. */
export const BUILD: unique symbol = Symbol("signet.relay.build");

/**
 * A stand-in of `prototype`'s class. `own(property)` answers the members it can without the real
 * object, or {@link BUILD}; every other member is read from `build()` (called at most once), with
 * its methods bound to the real object so that its internal slots are found. Writes go to the
 * real object; `in` answers `true` for a member of the prototype without building it.
 */
export function lazyProxy<T extends object>(
  prototype: T,
  own: (property: string | symbol) => unknown,
  build: () => T,
): T {
  return new Proxy(Object.create(prototype) as T, new LazyHandler(prototype, own, build));
}

/**
 * The traps of one stand-in, as methods of one object: made on every request (a `Request` for
 * `resolveUser`), so one object with the state in its fields rather than a closure per trap.
 */
class LazyHandler<T extends object> implements ProxyHandler<T> {
  private real: T | undefined;

  constructor(
    private readonly prototype: T,
    private readonly own: (property: string | symbol) => unknown,
    private readonly build: () => T,
  ) {}

  private built(): T {
    this.real ??= this.build();
    return this.real;
  }

  get(_target: T, property: string | symbol): unknown {
    const answer = this.own(property);
    if (answer !== BUILD) return answer;
    const target = this.built();
    const value: unknown = Reflect.get(target, property, target);
    return typeof value === "function" ? value.bind(target) : value;
  }

  set(_target: T, property: string | symbol, value: unknown): boolean {
    const target = this.built();
    return Reflect.set(target, property, value, target);
  }

  has(_target: T, property: string | symbol): boolean {
    // A member every object of the class has needs no build; anything else (an internal slot)
    // is asked of the real one.
    if (typeof property === "string" && property in this.prototype) return true;
    return Reflect.has(this.built(), property);
  }
}
