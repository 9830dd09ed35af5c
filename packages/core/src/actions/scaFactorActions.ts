// The chunk of the SCA factor actions (./lazy.ts loads it): their functions only, so that the
// chunk carries none of scaFactors.ts's rows and routes it does not run (a module loaded with
// import() keeps every export).
export {
  deleteScaFactor,
  enrollScaPasskey,
  listScaFactors,
  recordSecurityEvent,
} from "./scaFactors.js";
