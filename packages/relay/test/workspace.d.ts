// The few exports of sibling workspace packages these tests use. Vitest resolves the real
// sources (vitest.config.ts aliases); tsc checks the tests against these shapes only, so the
// relay's type-check does not depend on another package's work in progress.
declare module "@signet/emulator" {
  export interface EmulatorServer {
    url: string;
    close(): Promise<void>;
    emulator: {
      setWebhookUrl(url: string | undefined): void;
      webhookDeliveries(): { id: string; requestId: string; attempt: number; status: number }[];
    };
  }
  export function startEmulatorServer(options?: {
    port?: number;
    webhooks?: { baseDelayMs?: number; maxAttempts?: number; settleMs?: number };
  }): Promise<EmulatorServer>;
}

declare module "@signet/core" {
  export function sealOtpBundle(parameters: {
    targetBundle: string;
    otpCode: string;
    publicKey: string;
    trustedKeys?: string[];
    allowUnsigned?: boolean;
  }): Promise<string>;
}
