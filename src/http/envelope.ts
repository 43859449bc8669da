import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { classifyError } from './error-classification';

/**
 * The `{status, error}` answer to any error, from any layer: the exception filter and every answer given outside Nest
 * (deadline, malformed requests) use it, so there is one shape and one choice of message.
 */
export function toEnvelope(error: unknown): ErrorResponseDto {
  const { status, message } = classifyError(error);
  return { status, error: message };
}
