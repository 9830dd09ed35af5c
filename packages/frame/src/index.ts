// @signet/frame: session keys in a signer frame of another origin, which checks every payload with
// core's own checks and asks for a tap inside itself before money, export or credential changes.
export {
  type FrameCryptoApi,
  type FrameSigner,
  type FrameSignerOptions,
  frameSigner,
} from "./adapter.js";
export type { ChannelOptions, FrameChannel } from "./channel.js";
export {
  CHANNEL,
  CHANNEL_VERSION,
  type FrameAnswer,
  type FrameRequest,
  type FrameRequestBody,
  type FrameRequestKind,
  type FrameResults,
  type WireError,
} from "./protocol.js";
