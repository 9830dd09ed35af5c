// The README's minimal screen (packages/core/README.md, "A minimal screen"), on the app's client.
import { requestOtp, verifyOtp, type RequestOtpReturnType, type SignetClient } from '@signet/core';
import { useState } from 'react';
import { Button, Text, TextInput, View } from 'react-native';

export function SignIn({ client, credentialId }: { client: SignetClient; credentialId: string }) {
  const [otp, setOtp] = useState<RequestOtpReturnType>();
  const [code, setCode] = useState('');
  const [message, setMessage] = useState('');
  const run = (work: () => Promise<void>) =>
    work().catch((e) => setMessage(`${e.code}: ${e.message}`));
  if (!otp)
    return (
      <Button
        title="Email me a code"
        onPress={() => run(async () => setOtp(await requestOtp(client, { credentialId })))}
      />
    );
  return (
    <View>
      <TextInput
        value={code}
        onChangeText={setCode}
        keyboardType="number-pad"
        textContentType="oneTimeCode"
      />
      <Button
        title="Sign in"
        onPress={() =>
          run(async () => {
            const session = await verifyOtp(client, { ...otp, otpCode: code });
            setMessage(`Signed in until ${session.expiresAt}`);
          })
        }
      />
      <Text>{message}</Text>
    </View>
  );
}
