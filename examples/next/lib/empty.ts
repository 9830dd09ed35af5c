// Stands in for Node's `crypto` in the browser bundle (see next.config.ts): nothing here.
export {};
