// The code of the actions `lazyWallet.ts` loads on first use, as one chunk.
export { addCredential } from "./addCredential.js";
export { confirmContactVerification, startContactVerification } from "./contactVerification.js";
export { createDelegatedKey } from "./createDelegatedKey.js";
export { exportWallet } from "./exportWallet.js";
export { getDelegatedKey } from "./getDelegatedKey.js";
export { listCredentials } from "./listCredentials.js";
export { listDelegatedKeys } from "./listDelegatedKeys.js";
export { listTransactions } from "./listTransactions.js";
export { revokeCredential } from "./revokeCredential.js";
export { revokeDelegatedKey } from "./revokeDelegatedKey.js";
export { updateCustomerContact } from "./updateCustomerContact.js";
export { updateWalletPrivacy } from "./updateWalletPrivacy.js";
