// How many connections a local server keeps. Any local user can connect to 127.0.0.1 without the token,
// and each connection kept is an fd: ~20,000 idle ones filled holdwatch's fd table, and its scans of
// /proc then failed with EMFILE. So a connection is untrusted until it proves it holds the token (an
// authorised WebSocket, a boundary hello), and untrusted ones are few and brief: past `maxUntrusted`
// the oldest is dropped for the newcomer (a flood sheds its own connections, not the page's), and one
// still untrusted after `untrustedDeadlineMs` is dropped. Past `maxTotal`, a newcomer is refused.
import type { Socket } from 'node:net';

export interface ConnectionBudgetOptions {
  maxTotal: number;
  maxUntrusted: number;
  untrustedDeadlineMs: number;
}

export class ConnectionBudget {
  /** Insertion order is arrival order: the first is the oldest. */
  private readonly untrusted = new Map<Socket, NodeJS.Timeout>();
  private readonly trusted = new Set<Socket>();

  constructor(private readonly options: ConnectionBudgetOptions) {}

  /** A new connection: kept untrusted, or refused (destroyed) when the server is full. */
  admit(socket: Socket): void {
    if (this.untrusted.size + this.trusted.size >= this.options.maxTotal) {
      socket.destroy();
      return;
    }
    if (this.untrusted.size >= this.options.maxUntrusted) this.drop(this.untrusted.keys().next().value!);
    const deadline = setTimeout(() => this.drop(socket), this.options.untrustedDeadlineMs);
    deadline.unref();
    this.untrusted.set(socket, deadline);
    socket.once('close', () => this.forget(socket));
  }

  /** The connection proved it holds the token: it is kept until it closes. */
  trust(socket: Socket): void {
    const deadline = this.untrusted.get(socket);
    if (deadline === undefined) return;
    clearTimeout(deadline);
    this.untrusted.delete(socket);
    this.trusted.add(socket);
  }

  get size(): { untrusted: number; trusted: number } {
    return { untrusted: this.untrusted.size, trusted: this.trusted.size };
  }

  private drop(socket: Socket): void {
    this.forget(socket);
    socket.destroy();
  }

  private forget(socket: Socket): void {
    clearTimeout(this.untrusted.get(socket));
    this.untrusted.delete(socket);
    this.trusted.delete(socket);
  }
}
