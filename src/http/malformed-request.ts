import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { HttpException, HttpStatus } from '@nestjs/common';
import { toEnvelope } from './envelope';

function refusalOf(code: string | undefined): HttpException {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new HttpException('Request headers are too large', 431);
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new HttpException('Request not received in time', HttpStatus.REQUEST_TIMEOUT);
    default:
      return new HttpException('Malformed HTTP request', HttpStatus.BAD_REQUEST);
  }
}

// These never reach a hook, so the envelope is written on the raw socket.
export function answerMalformedRequest(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const envelope = toEnvelope(refusalOf(error.code));
  const body = JSON.stringify(envelope);
  socket.end(
    `HTTP/1.1 ${envelope.status} ${STATUS_CODES[envelope.status]}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
