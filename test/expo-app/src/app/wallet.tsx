// A route for the README's minimal screen: the backend's configuration and the wallet's email
// credential come from the backend (here the demo server's own endpoints, after its login).
import { useLocalSearchParams } from 'expo-router';
import { useMemo } from 'react';

import { SignIn } from '@/components/sign-in';
import { createWalletClient } from '@/signet';

export default function WalletScreen() {
  const { credentialId = '', rpId = 'localhost' } = useLocalSearchParams<{
    credentialId?: string;
    rpId?: string;
  }>();
  const client = useMemo(() => createWalletClient({ rpId }), [rpId]);
  return <SignIn client={client} credentialId={credentialId} />;
}
