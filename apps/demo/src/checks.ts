// Shapes the demo checks before it asks its server: the same rules as the server's.

/** An email: any characters but spaces and `@` around one `@` and a dot (`zoë@…` included). */
export const EMAIL_SHAPE = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@.]{2,24}$/u;
