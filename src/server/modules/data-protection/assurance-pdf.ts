/**
 * The school's assurance as a PDF, made on the server with pdfkit (pure JavaScript): the same words
 * as the page (assuranceHeading and assuranceLines), each session with the person's photo when one is
 * kept, and the organisation's statement at the foot. Certificate numbers are masked as on the page.
 * The standard Helvetica font covers Western European letters; a letter beyond them prints as a
 * question mark rather than failing the file.
 */
import { inArray } from 'drizzle-orm';
import PDFDocument from 'pdfkit';
import {
  type AssuranceResponse,
  assuranceHeading,
  assuranceLines,
} from '../../../shared/schemas/data-protection';
import type { Queryable } from '../../db/client';
import { facilitatorPhotos } from '../../db/schema';

const PHOTO_WIDTH = 80;
const PHOTO_HEIGHT = 100;

/**
 * Helvetica as pdfkit embeds it writes Windows-1252 only: anything else becomes "?", so a name in
 * another script never breaks the file.
 */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const printable = (text: string) =>
  [...text]
    .map((ch) => {
      const code = ch.codePointAt(0)!;
      return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch)
        ? ch
        : '?';
    })
    .join('');

/** The photos of these people, by account id (JPEGs as kept). */
async function photosOf(db: Queryable, userIds: number[]): Promise<Map<number, Buffer>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: facilitatorPhotos.userId, image: facilitatorPhotos.image })
    .from(facilitatorPhotos)
    .where(inArray(facilitatorPhotos.userId, userIds));
  return new Map(rows.map((row) => [row.userId, Buffer.from(row.image)]));
}

/** The assurance as a PDF file. `timeZone` dates the "Made" line as the organisation reads it. */
export async function assurancePdf(
  db: Queryable,
  answer: AssuranceResponse,
  timeZone: string,
): Promise<Buffer> {
  const withPhoto = answer.sessions.filter((s) => s.person.hasPhoto).map((s) => s.person.userId);
  const photos = await photosOf(db, [...new Set(withPhoto)]);
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: 'Confirmation of safeguarding checks', Author: 'Arts Facilitator Portal' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const made = new Intl.DateTimeFormat('en-GB', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone,
  }).format(new Date(answer.generatedAt));

  doc.font('Helvetica-Bold').fontSize(16).text('Confirmation of safeguarding checks', left, doc.y, { width });
  doc.font('Helvetica').fontSize(9).fillColor('#444444').text(`Made ${made}`, { width });
  doc.fillColor('#000000').moveDown();
  if (answer.sessions.length === 0) {
    doc.fontSize(11).text('No one was sent to a session in these days.', { width });
  }

  for (const session of answer.sessions) {
    const lines = assuranceLines(session.person);
    // a session is not split over two pages when it fits on one
    const needed = 40 + lines.length * 14;
    if (doc.y + needed > doc.page.height - doc.page.margins.bottom) doc.addPage();
    doc
      .moveTo(left, doc.y)
      .lineTo(left + width, doc.y)
      .strokeColor('#999999')
      .stroke();
    doc.moveDown(0.5);
    doc
      .font('Helvetica-Bold')
      .fontSize(11)
      .text(printable(assuranceHeading(session)), left, doc.y, { width });
    if (session.session) {
      doc.font('Helvetica').fontSize(9).fillColor('#444444').text(printable(session.session), { width });
      doc.fillColor('#000000');
    }
    doc.moveDown(0.3);
    const top = doc.y;
    const photo = photos.get(session.person.userId);
    const textLeft = photo ? left + PHOTO_WIDTH + 12 : left;
    if (photo) doc.image(photo, left, top, { fit: [PHOTO_WIDTH, PHOTO_HEIGHT] });
    doc.fontSize(10);
    let y = top;
    for (const [label, value] of lines) {
      doc.font('Helvetica-Bold').text(printable(label), textLeft, y, { width: 170 });
      const labelBottom = doc.y;
      doc
        .font('Helvetica')
        .text(printable(value), textLeft + 180, y, { width: left + width - textLeft - 180 });
      y = Math.max(labelBottom, doc.y) + 2;
    }
    doc.x = left;
    doc.y = Math.max(y, photo ? top + PHOTO_HEIGHT : y) + 8;
  }

  doc.moveDown();
  doc.font('Helvetica').fontSize(10).text(printable(answer.statement), left, doc.y, { width });
  doc.end();
  return done;
}
