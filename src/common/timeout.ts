import { ServiceUnavailableError } from './errors/unavailable';

// The operation is not cancelled: its late outcome is ignored.
export function withTimeout<T>(operation: Promise<T>, milliseconds: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ServiceUnavailableError(`${what} did not answer within ${milliseconds} ms`)), milliseconds);
  });
  return Promise.race([operation, timeout]).finally(() => clearTimeout(timer));
}
