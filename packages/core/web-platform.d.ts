/*
 * The few globals the core uses beyond ECMAScript itself. Each is part of the
 * web platform, so Node, Deno, Bun, browsers and workers all have it; they are
 * declared here rather than taken from lib "DOM" or @types/node so that the
 * core's type check (packages/core/tsconfig.json) refuses everything else:
 * Buffer, process, setImmediate, `node:` modules. Only the members the core
 * calls are declared. Programs that include @types/node (every other package)
 * do not see this file and use Node's fuller declarations.
 */

interface Console {
  log(...data: unknown[]): void;
  warn(...data: unknown[]): void;
  error(...data: unknown[]): void;
}
declare var console: Console;

declare var performance: { now(): number };

/** A timer; Node's has `unref`, which lets the process exit while it is pending. */
interface TimerHandle {
  unref?(): void;
}
declare function setTimeout(run: (...args: never[]) => void, ms?: number): TimerHandle;
declare function clearTimeout(timer: TimerHandle | undefined): void;
declare function setInterval(run: (...args: never[]) => void, ms?: number): TimerHandle;
declare function clearInterval(timer: TimerHandle | undefined): void;

declare function structuredClone<T>(value: T): T;

declare class TextEncoder {
  encode(input?: string): Uint8Array<ArrayBuffer>;
}
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: ArrayBufferView | ArrayBuffer): string;
}

/** Web Crypto: only its generator of random bytes. */
declare var crypto: { getRandomValues<T extends ArrayBufferView>(array: T): T };

/** Base64 of a binary string (one character per byte), and back; atob throws on what is not base64. */
declare function btoa(data: string): string;
declare function atob(data: string): string;

/** A parsed URL: the core only hands it on (an authenticator's request). */
interface URL {
  readonly href: string;
  readonly pathname: string;
  readonly search: string;
}

/**
 * Compression streams in zlib's deflate format (the test kit's PNG images): a chunk written to
 * `writable` comes out of `readable` compressed or decompressed.
 */
interface ByteTransformStream {
  readonly writable: { getWriter(): { write(chunk: Uint8Array): Promise<void>; close(): Promise<void> } };
  readonly readable: { getReader(): { read(): Promise<{ done: true; value?: undefined } | { done: false; value: Uint8Array }> } };
}
declare var CompressionStream: new (format: "deflate") => ByteTransformStream;
declare var DecompressionStream: new (format: "deflate") => ByteTransformStream;
