// The small schemas every topic shares. Bounds matter: a hostile page or a broken peer must not make
// the receiving side allocate without limit.
import { z } from 'zod';

export const pid = z.number().int().nonnegative();
/** An ISO 8601 moment. */
export const iso = z.string().min(1);
/** A path or command as a request carries it. */
export const boundedPath = z.string().min(1).max(32_768);
/** Run and watch ids. */
export const id = z.string().min(1).max(200);
