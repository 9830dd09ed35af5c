// Stands in for `expo-file-system` in the Metro bundle (see ../../metro.ts): the document directory
// of an app that is never reinstalled across these runs, so the install marker is always there.
export const Paths = { document: "file:///document" };

export class File {
  readonly exists = true;
  constructor(_directory: unknown, _name: string) {}
  create(): void {}
}
