// The app's wallet journey under jest-expo with only what packages/core/README.md says (the
// "@signet/core/jest" preset), against the demo server over real HTTP: the demo's login (a
// cookie), a wallet session by email code with its key in expo-secure-store, a payment to
// COMPLETED, and the recovery phrase. The app's own client module (src/signet.ts) is what runs.
import {
  executeQuote,
  exportWallet,
  type QuoteJson,
  requestOtp,
  verifyOtp,
  waitForTransaction,
} from '@signet/core';
import { Settings } from 'react-native';

import { type Backend, createWalletClient } from '@/signet';
import { type DemoServer, startDemoServer } from '../testing/demo-server';

let demo: DemoServer;
beforeAll(async () => {
  demo = await startDemoServer();
}, 90_000);
afterAll(() => demo?.stop());

/** The demo server's own endpoints: its login keeps a cookie, as React Native's networking does. */
async function backend<T>(path: string, body?: object): Promise<T> {
  const response = await fetch(`${demo.url}/api/demo/${path}`, {
    method: body ? 'POST' : 'GET',
    headers: body ? { 'content-type': 'application/json' } : {},
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

type Profile = { accountId: string; credentials: { id: string; type: string }[] };

it('signs in by email code, pays to COMPLETED and shows the recovery phrase', async () => {
  const config = await backend<Backend>('config');
  const client = createWalletClient(config, demo.url);
  const profile = await backend<Profile>('signin', {
    email: `fresh-${Date.now()}@example.com`,
    region: 'US',
  });
  const credential = profile.credentials.find((c) => c.type === 'EMAIL_OTP');
  expect(credential).toBeDefined();

  // Sign-in: the code and a fresh device key sealed to the enclave; the key stays on the phone.
  const otp = await requestOtp(client, { credentialId: credential!.id });
  const session = await verifyOtp(client, { ...otp, otpCode: '000000' });
  expect(session.accountId).toBe(profile.accountId);
  expect(await client.persistence()).toBe('secure-store');
  const stored = [...jest.requireMock('expo-secure-store').items.keys()] as string[];
  expect(stored.some((key) => key.includes('signet.'))).toBe(true);
  // The reinstall marker: a preference (iOS, jest-expo's default platform), not a file.
  expect(Settings.get('signet.installed.expo-secure-store')).toBe('1');

  // A payment of 5 USDB (6 decimals): the backend funds the sandbox wallet and makes the quote;
  // the phone signs it.
  await backend('fund', { amount: 5_000_000 });
  const quote = await backend<QuoteJson>('quote', { amount: 5_000_000 });
  const executed = await executeQuote(client, { quote });
  const transaction = await waitForTransaction(client, {
    transactionId: executed.transactionId!,
  });
  expect(transaction.status).toBe('COMPLETED');

  // The recovery phrase: the export bundle opened on the phone, 12 BIP-39 words here.
  const phrase = await exportWallet(client, { accountId: profile.accountId });
  expect(phrase.split(' ')).toHaveLength(12);
  expect(phrase).toMatch(/^[a-z]+( [a-z]+){11}$/);
}, 120_000);
