export {
  createOutboundClient,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  type OutboundClientOptions,
} from './client.js'
export {
  type OutboundClient,
  OutboundFailedError,
  OutboundRefusedError,
  type OutboundRequest,
  type OutboundResponse,
} from './types.js'
