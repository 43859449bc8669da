import { CallHandler, ExecutionContext } from '@nestjs/common';
import { NEVER, firstValueFrom, of, throwError } from 'rxjs';
import { ServiceUnavailableError } from '../filters/error-classification';
import { REQUEST_DEADLINE_MS, RequestDeadlineInterceptor, withDeadline } from './request-deadline.interceptor';

describe('RequestDeadlineInterceptor', () => {
  const interceptor = new RequestDeadlineInterceptor();
  const arrivedMsAgo = (elapsedTime: number) =>
    ({ switchToHttp: () => ({ getResponse: () => ({ elapsedTime }) }) }) as unknown as ExecutionContext;
  const context = arrivedMsAgo(0);
  const handler = (observable: CallHandler['handle']): CallHandler => ({ handle: observable });

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('should pass a timely answer through', async () => {
    await expect(
      firstValueFrom(
        interceptor.intercept(
          context,
          handler(() => of('answer')),
        ),
      ),
    ).resolves.toBe('answer');
  });

  it('should turn a handler that never answers into a ServiceUnavailableError at the deadline', async () => {
    const answer = firstValueFrom(
      interceptor.intercept(
        context,
        handler(() => NEVER),
      ),
    );
    jest.advanceTimersByTime(REQUEST_DEADLINE_MS);
    await expect(answer).rejects.toBeInstanceOf(ServiceUnavailableError);
  });

  it('should deduct the time the request already spent before the handler (in guards)', async () => {
    const answer = firstValueFrom(
      interceptor.intercept(
        arrivedMsAgo(REQUEST_DEADLINE_MS - 100),
        handler(() => NEVER),
      ),
    );
    jest.advanceTimersByTime(100);
    await expect(answer).rejects.toBeInstanceOf(ServiceUnavailableError);
  });

  it('should let the handler’s own errors through unchanged', async () => {
    const error = new Error('own');
    await expect(
      firstValueFrom(
        interceptor.intercept(
          context,
          handler(() => throwError(() => error)),
        ),
      ),
    ).rejects.toBe(error);
  });
});

describe('withDeadline', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('should answer what the operation answers in time', async () => {
    await expect(withDeadline(Promise.resolve(7), 1000, 'database')).resolves.toBe(7);
  });

  it('should reject with a ServiceUnavailableError once the deadline passes', async () => {
    const waiting = withDeadline(new Promise(() => undefined), 1000, 'database');
    jest.advanceTimersByTime(1000);
    await expect(waiting).rejects.toBeInstanceOf(ServiceUnavailableError);
  });
});
