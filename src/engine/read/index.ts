// The document reading layer: file type, page count, page selection, words with positions.
export { detectFileKind } from './detect-file-kind.js';
export { countPages } from './count-pages.js';
export { parsePageRanges } from './page-ranges.js';
export { readDocument, readPages } from './read-pages.js';
export { writeSelectedPages } from './select-pages.js';
export { closeReaders, configureReaders, type ReaderPoolOptions } from './reader-pools.js';
