import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { HttpException, HttpStatus } from '@nestjs/common';
import { toEnvelope } from './envelope';

/** Requests Node cannot even parse (oversized headers, broken HTTP) still get the envelope, on the raw socket. */
export function answerMalformedRequest(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const refusal =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new HttpException('Request headers are too large', 431)
      : new HttpException('Malformed HTTP request', HttpStatus.BAD_REQUEST);
  const envelope = toEnvelope(refusal);
  const body = JSON.stringify(envelope);
  socket.end(
    `HTTP/1.1 ${envelope.status} ${STATUS_CODES[envelope.status]}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
