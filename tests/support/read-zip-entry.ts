import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';

/**
 * Reads one file out of a zip archive (stored or deflated entries), so tests can look inside the
 * store zips without an `unzip` program on the machine.
 */
export function readZipEntry(zipPath: string, entryName: string): Buffer {
  const zip = readFileSync(zipPath);
  const endOfDirectory = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (endOfDirectory < 0) throw new Error(`${zipPath} is not a zip archive`);
  const entryCount = zip.readUInt16LE(endOfDirectory + 10);
  let offset = zip.readUInt32LE(endOfDirectory + 16);
  for (let index = 0; index < entryCount; index += 1) {
    const method = zip.readUInt16LE(offset + 10);
    const compressedSize = zip.readUInt32LE(offset + 20);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    const localHeader = zip.readUInt32LE(offset + 42);
    const name = zip.toString('utf8', offset + 46, offset + 46 + nameLength);
    if (name === entryName) {
      const dataStart = localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
      const data = zip.subarray(dataStart, dataStart + compressedSize);
      return method === 0 ? Buffer.from(data) : inflateRawSync(data);
    }
    offset += 46 + nameLength + extraLength + commentLength;
  }
  throw new Error(`${zipPath} holds no ${entryName}`);
}

/** The names of every file in a zip archive. */
export function listZipEntries(zipPath: string): string[] {
  const zip = readFileSync(zipPath);
  const endOfDirectory = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const entryCount = zip.readUInt16LE(endOfDirectory + 10);
  let offset = zip.readUInt32LE(endOfDirectory + 16);
  const names: string[] = [];
  for (let index = 0; index < entryCount; index += 1) {
    const nameLength = zip.readUInt16LE(offset + 28);
    names.push(zip.toString('utf8', offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + zip.readUInt16LE(offset + 30) + zip.readUInt16LE(offset + 32);
  }
  return names;
}
