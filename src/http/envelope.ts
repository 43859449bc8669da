import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { classifyError } from './error-classification';

export function toEnvelope(error: unknown): ErrorResponseDto {
  const { status, message } = classifyError(error);
  return { status, error: message };
}
