import { eq, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { PHOTO_MAX_BYTES, type PhotoResponse } from '../../../shared/schemas/data-protection';
import type { Queryable } from '../../db/client';
import { facilitatorPhotos, users } from '../../db/schema';
import { badRequest, notFound } from '../../errors';
import { STAFF_ROLE } from '../users/service';

/** The longest side a kept photo has, in pixels. */
export const PHOTO_SIDE = 600;
const NOT_AN_IMAGE = 'The file is not a JPEG, PNG or WebP image';

/** What the file's first bytes say it is; the name and the stated type are never trusted. */
export function imageTypeOf(bytes: Uint8Array): 'jpeg' | 'png' | 'webp' | null {
  const starts = (offset: number, ...values: number[]) => values.every((v, i) => bytes[offset + i] === v);
  if (starts(0, 0xff, 0xd8, 0xff)) return 'jpeg';
  if (starts(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (starts(0, 0x52, 0x49, 0x46, 0x46) && starts(8, 0x57, 0x45, 0x42, 0x50)) return 'webp';
  return null;
}

/**
 * Check an uploaded photo by its content and make the copy that is kept: turned upright, at most
 * PHOTO_SIDE pixels a side, re-encoded as JPEG with no metadata (no EXIF, no location, no camera).
 * Anything that is not a readable JPEG, PNG or WebP is refused with 400.
 */
export async function preparePhoto(file: Buffer): Promise<{ image: Buffer; width: number; height: number }> {
  if (file.length > PHOTO_MAX_BYTES) throw badRequest('The photo is larger than 5 MB');
  const type = imageTypeOf(file);
  if (!type) throw badRequest(NOT_AN_IMAGE, { image: [NOT_AN_IMAGE] });
  try {
    const input = sharp(file, { limitInputPixels: 40_000_000, failOn: 'error' });
    const metadata = await input.metadata();
    if (metadata.format !== type) throw new Error('format differs from its first bytes');
    const { data, info } = await input
      .rotate()
      .resize(PHOTO_SIDE, PHOTO_SIDE, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    return { image: data, width: info.width, height: info.height };
  } catch {
    throw badRequest('The photo could not be read as an image', {
      image: ['The photo could not be read as an image'],
    });
  }
}

async function facilitatorOf(db: Queryable, userId: number) {
  const [person] = await db.select({ role: users.role }).from(users).where(eq(users.id, userId));
  if (!person) throw notFound('Facilitator not found');
  if (person.role === STAFF_ROLE) throw badRequest('Photos are kept for facilitators, not staff accounts');
}

/** Replace a facilitator's photo with the prepared copy of `file`. */
export async function savePhoto(
  db: Queryable,
  userId: number,
  file: Buffer,
  uploadedBy: number,
  now: Date,
): Promise<PhotoResponse> {
  await facilitatorOf(db, userId);
  const photo = await preparePhoto(file);
  const values = { ...photo, uploadedAt: now, uploadedBy };
  await db
    .insert(facilitatorPhotos)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: facilitatorPhotos.userId, set: values });
  return { userId, width: photo.width, height: photo.height, uploadedAt: now.toISOString() };
}

/** The kept JPEG, or 404 when there is none. */
export async function readPhoto(db: Queryable, userId: number): Promise<Buffer> {
  const [row] = await db
    .select({ image: facilitatorPhotos.image })
    .from(facilitatorPhotos)
    .where(eq(facilitatorPhotos.userId, userId));
  if (!row) throw notFound('No photo is kept for this person');
  return Buffer.from(row.image);
}

/** Remove a facilitator's photo (404 when there is none). */
export async function deletePhoto(db: Queryable, userId: number): Promise<void> {
  const removed = await db
    .delete(facilitatorPhotos)
    .where(eq(facilitatorPhotos.userId, userId))
    .returning({ userId: facilitatorPhotos.userId });
  if (removed.length === 0) throw notFound('No photo is kept for this person');
}

/** Erasure: one person's photo. Returns how many were removed (0 or 1). */
export async function erasePhoto(db: Queryable, userId: number): Promise<number> {
  const removed = await db
    .delete(facilitatorPhotos)
    .where(eq(facilitatorPhotos.userId, userId))
    .returning({ userId: facilitatorPhotos.userId });
  return removed.length;
}

/** Retention: the photos of these people (leavers whose time is up). Returns how many went. */
export async function removePhotosOf(db: Queryable, userIds: readonly number[]): Promise<number> {
  if (userIds.length === 0) return 0;
  const removed = await db
    .delete(facilitatorPhotos)
    .where(inArray(facilitatorPhotos.userId, [...userIds]))
    .returning({ userId: facilitatorPhotos.userId });
  return removed.length;
}
