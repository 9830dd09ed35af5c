// The customer's answer to an action's question (a 6-digit code, or an SCA proof), as the promise
// the action's callback returns: core asks (`onSecret`, `onChallenge`), the screen shows what was
// asked, and what the customer types resolves the promise. Core asks again after a refused answer,
// with the service's error, so one prompt serves every round of one call.
import { type FormEvent, useCallback, useRef, useState } from "react";

/**
 * A prompt for the customer's answer: `ask(shown)` puts `shown` on screen and returns the promise
 * that `answer` (or `submit`, a 6-digit code from the field, as `fromCode` makes it an answer)
 * resolves. `shown` stays on screen after the answer, until the next `ask` replaces it or `clear`
 * removes it (call it when the action ends, either way). `code` is the field's digits, emptied by
 * each `ask`.
 */
export function useCodePrompt<TShown, TAnswer>(fromCode: (code: string) => TAnswer) {
  const [asking, setAsking] = useState<TShown>();
  const [code, setCode] = useState("");
  const pending = useRef<(answer: TAnswer) => void>(undefined);
  const ask = useCallback(
    (shown: TShown) =>
      new Promise<TAnswer>((resolve) => {
        pending.current = resolve;
        setCode("");
        setAsking(shown);
      }),
    [],
  );
  const answer = useCallback((value: TAnswer) => {
    const resolve = pending.current;
    pending.current = undefined;
    resolve?.(value);
  }, []);
  const clear = useCallback(() => {
    pending.current = undefined;
    setAsking(undefined);
  }, []);
  const submit = (event?: FormEvent, typed = code) => {
    event?.preventDefault();
    if (typed.length === 6) answer(fromCode(typed));
  };
  return { asking, ask, answer, clear, code, setCode, submit };
}
