// The fd links of one process that lie under the watched dirs, kept as the bytes the kernel gave
// (fd name, target) until someone needs strings: a poller compares them with the last walk's
// (fd-row-memo.ts), and for a process whose links are what they were, no string is ever made.
// Layout per link: [u8 name length][name][u16 target length][target].

const DELETED_MARK = Buffer.from(' (deleted)', 'latin1');
const CLOSE_PAREN = 0x29;
const DIGIT_0 = 0x30;

/** An fd's kind and access mode (open(2) flags, null when unreadable), read as its link was. */
export interface LinkFacts {
  dir: boolean;
  flags: number | null;
}

export class LinkBatch {
  private bytes = Buffer.allocUnsafe(64 * 1024);
  private length = 0;
  count = 0;
  /**
   * Some target ends in " (deleted)": whether it is deleted comes from a stat (a file may be named
   * so), not from the bytes, so these links are never taken as unchanged.
   */
  marked = false;
  /**
   * Each link's facts in order, when its reader statted the fd beside the readlink (a one-shot walk
   * with libc: fd-links.ts); null for an fd that closed first. Empty when the reader did not.
   */
  readonly facts: (LinkFacts | null)[] = [];

  clear(): void {
    this.length = 0;
    this.count = 0;
    this.marked = false;
    this.facts.length = 0;
  }

  /** A link read by libc: the name is `name[0, nameLength)`, the target `target[0, targetLength)`. */
  add(name: Buffer, nameLength: number, target: Buffer, targetLength: number): void {
    const at = this.reserve(3 + nameLength + targetLength);
    const bytes = this.bytes;
    bytes[at] = nameLength;
    for (let i = 0; i < nameLength; i++) bytes[at + 1 + i] = name[i]!;
    bytes.writeUInt16LE(targetLength, at + 1 + nameLength);
    target.copy(bytes, at + 3 + nameLength, 0, targetLength);
    if (target[targetLength - 1] === CLOSE_PAREN && endsWithDeletedMark(target, targetLength)) this.marked = true;
    this.count++;
  }

  /** A link read by Node's fs, already strings. */
  addText(fd: string, target: string): void {
    const targetLength = Buffer.byteLength(target, 'utf8');
    const at = this.reserve(3 + fd.length + targetLength);
    this.bytes[at] = this.bytes.write(fd, at + 1, 'latin1');
    this.bytes.writeUInt16LE(targetLength, at + 1 + fd.length);
    this.bytes.write(target, at + 3 + fd.length, 'utf8');
    if (target.endsWith(' (deleted)')) this.marked = true;
    this.count++;
  }

  /** Byte for byte the links of `previous` (a copy()). */
  equals(previous: Buffer): boolean {
    return previous.length === this.length && this.bytes.compare(previous, 0, previous.length, 0, this.length) === 0;
  }

  copy(): Buffer {
    return Buffer.from(this.bytes.subarray(0, this.length));
  }

  /**
   * Each link in order: its fd's number as text, its target decoded, its facts, and where the target's
   * bytes are (targetBytes copies them, for a target that is not UTF-8: U+FFFD in `target`). No closure
   * or Buffer.toString dispatch per link: a one-shot walk runs this once per held fd, before V8 compiles it.
   */
  forEach(onLink: (fd: string, target: string, facts: LinkFacts | null | undefined, targetAt: number, targetLength: number) => void): void {
    const bytes = this.bytes;
    for (let at = 0, index = 0; at < this.length; index++) {
      const nameEnd = at + 1 + bytes[at]!;
      // An fd's name is its number in decimal, as /proc writes it.
      let fd = 0;
      for (let i = at + 1; i < nameEnd; i++) fd = fd * 10 + bytes[i]! - DIGIT_0;
      const targetLength = bytes[nameEnd]! | (bytes[nameEnd + 1]! << 8);
      const targetAt = nameEnd + 2;
      onLink(String(fd), bytes.toString('utf8', targetAt, targetAt + targetLength), this.facts[index], targetAt, targetLength);
      at = targetAt + targetLength;
    }
  }

  /** A copy of the bytes forEach placed at `targetAt`. */
  targetBytes(targetAt: number, targetLength: number): Buffer {
    return Buffer.from(this.bytes.subarray(targetAt, targetAt + targetLength));
  }

  private reserve(size: number): number {
    if (this.length + size > this.bytes.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + size));
      this.bytes.copy(bigger, 0, 0, this.length);
      this.bytes = bigger;
    }
    const at = this.length;
    this.length += size;
    return at;
  }
}

function endsWithDeletedMark(target: Buffer, length: number): boolean {
  return length >= DELETED_MARK.length && target.compare(DELETED_MARK, 0, DELETED_MARK.length, length - DELETED_MARK.length, length) === 0;
}
