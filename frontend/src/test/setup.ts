// vitest setup (test-only; never bundled into the app).
//
// The wailsjs bindings are never real under vitest (there is no window.go): every test file gets
// the doubles of ./mocks.ts, one per bound service and the runtime, driven through ./harness.ts.
import { vi } from 'vitest';

vi.mock('../../wailsjs/go/main/Sessions.js', async (generated) => (await import('./mocks')).serviceMock(await generated()));
vi.mock('../../wailsjs/go/main/Logins.js', async (generated) => (await import('./mocks')).serviceMock(await generated()));
vi.mock('../../wailsjs/go/main/History.js', async (generated) => (await import('./mocks')).serviceMock(await generated()));
vi.mock('../../wailsjs/go/main/Agents.js', async (generated) => (await import('./mocks')).serviceMock(await generated()));
vi.mock('../../wailsjs/go/main/Desktop.js', async (generated) => (await import('./mocks')).serviceMock(await generated()));
vi.mock('../../wailsjs/go/main/Rules.js', async (generated) => (await import('./mocks')).serviceMock(await generated()));
vi.mock('../../wailsjs/go/main/Registry.js', async (generated) => (await import('./mocks')).serviceMock(await generated()));
vi.mock('../../wailsjs/runtime/runtime.js', async () => (await import('./mocks')).runtimeMock());

// happy-dom bug capricorn86/happy-dom#2182: the Node.prototype.nodeName getter returns '' for
// every node, while DOMPurify >= 3.4.8 reads tag names through that getter (anti-clobbering).
// Without this shim DOMPurify drops allowed tags and keeps dangerous attributes under happy-dom.
// Real browsers (WebKitGTK, Chromium) are unaffected. The sanitiser itself is also tested under
// jsdom (src/lib/markdown.test.ts), which DOMPurify supports.
if (typeof window !== 'undefined' && typeof window.Node === 'function') {
  const proto = window.Node.prototype;
  const desc = Object.getOwnPropertyDescriptor(proto, 'nodeName');
  const probe = document.createElement('p');
  if (desc?.get && desc.get.call(probe) !== 'P') {
    Object.defineProperty(proto, 'nodeName', {
      configurable: true,
      enumerable: desc.enumerable,
      get(this: Node): string {
        switch (this.nodeType) {
          case 1:
            return (this as Element).tagName;
          case 2:
            return (this as Attr).name;
          case 3:
            return '#text';
          case 4:
            return '#cdata-section';
          case 7:
            return (this as ProcessingInstruction).target;
          case 8:
            return '#comment';
          case 9:
            return '#document';
          case 10:
            return (this as DocumentType).name;
          case 11:
            return '#document-fragment';
          default:
            return desc.get!.call(this) as string;
        }
      },
    });
  }
}
