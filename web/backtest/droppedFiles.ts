/**
 * The files of a drop, folders walked recursively (the File and Directory Entries API, which every current
 * browser implements for drag and drop: https://developer.mozilla.org/en-US/docs/Web/API/DataTransferItem/webkitGetAsEntry).
 * Entries must be taken from the items during the drop event, before any await: the list is emptied after it.
 */
export async function filesOfDrop(data: DataTransfer): Promise<File[]> {
  const entries = [...data.items].map((i) => (i.kind === 'file' ? i.webkitGetAsEntry() : null));
  const plain = [...data.files];
  if (entries.every((e) => e === null)) return plain;
  const out: File[] = [];
  for (const [k, e] of entries.entries()) {
    if (e) await walk(e, out);
    else if (plain[k]) out.push(plain[k]!);
  }
  return out;
}

async function walk(entry: FileSystemEntry, out: File[]): Promise<void> {
  if (entry.isFile) {
    out.push(await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject)));
    return;
  }
  if (!entry.isDirectory || entry.name === '.git' || entry.name === 'node_modules') return;
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries answers in batches until it answers an empty one.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return;
    batch.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const child of batch) await walk(child, out);
  }
}
