// SP 800-186 §3.2.1.3: the P-256 base point G. Apart from the other domain parameters (./p256.ts)
// because only multiplication by G needs it (./p256-multiply.ts in the browser's rare chunk,
// noble's curve in ./noble.ts): what every page loads has no use for it.

export const GX = 0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296n;
export const GY = 0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5n;
