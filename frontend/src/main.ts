import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { warmUp } from './lib/markdown';

const app = mount(App, { target: document.getElementById('app')! });

// Compile the Markdown pipeline while the page is idle, not during the first agent message.
const idle = globalThis.requestIdleCallback ?? ((fn: () => void) => setTimeout(fn, 200));
idle(() => warmUp());

export default app;
