// Stands in for `expo-constants` in the app's Hermes bundle (see ../metro.ts): on a phone the
// native side reads the app's configuration; here it is app.json's `expo` object, as written.
import app from "../../../../../../apps/mobile/app.json";

export default { expoConfig: app.expo };
