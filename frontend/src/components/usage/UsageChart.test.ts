// The charts are drawn with the theme's colours and drawn again when the theme changes; labels
// go to chart.js as data (drawn on canvas), never into the page as markup.
import { cleanup, render } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const drawn = vi.hoisted(() => ({ configs: [] as { data: { labels: string[]; datasets: { label: string; backgroundColor?: string }[] } }[], destroyed: 0 }));

vi.mock('chart.js', () => {
  class Chart {
    static register() {}
    constructor(_canvas: HTMLCanvasElement, config: (typeof drawn.configs)[number]) {
      drawn.configs.push(config);
    }
    destroy() {
      drawn.destroyed++;
    }
  }
  return { Chart, BarController: {}, BarElement: {}, LineController: {}, LineElement: {}, PointElement: {}, CategoryScale: {}, LinearScale: {}, Tooltip: {}, Legend: {} };
});

import UsageChart from './UsageChart.svelte';

let listeners: (() => void)[] = [];

beforeEach(() => {
  drawn.configs = [];
  drawn.destroyed = 0;
  listeners = [];
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(() => ({}) as CanvasRenderingContext2D);
  window.matchMedia = vi.fn(() => ({
    matches: false,
    addEventListener: (_: string, fn: () => void) => listeners.push(fn),
    removeEventListener: () => {},
  })) as unknown as typeof window.matchMedia;
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  document.documentElement.style.removeProperty('--accent');
});

const series = {
  days: ['2026-03-10', '2026-03-11'],
  tokens: [10, 20],
  turns: [1, 2],
  minutes: [0.5, 1],
  costs: [{ currency: 'USD', values: [0, 0.5] }],
};

describe('UsageChart', () => {
  it('draws tokens with cost and turns with minutes in the theme colours, and again on a theme change', async () => {
    document.documentElement.style.setProperty('--accent', '#111111');
    const { getByTestId } = render(UsageChart, { props: { series } });
    expect(getByTestId('usage-chart').querySelectorAll('canvas')).toHaveLength(2);
    expect(drawn.configs).toHaveLength(2);
    expect(drawn.configs[0].data.labels).toEqual(['03-10', '03-11']);
    expect(drawn.configs[0].data.datasets.map((d) => d.label)).toEqual(['Tokens', 'Cost (USD)']);
    expect(drawn.configs[1].data.datasets.map((d) => d.label)).toEqual(['Turns', 'Minutes']);
    expect(drawn.configs[0].data.datasets[0].backgroundColor).toBe('#111111');

    document.documentElement.style.setProperty('--accent', '#eeeeee');
    listeners.forEach((fn) => fn());
    await Promise.resolve();
    await vi.waitFor(() => expect(drawn.configs).toHaveLength(4));
    expect(drawn.destroyed).toBe(2);
    expect(drawn.configs[2].data.datasets[0].backgroundColor).toBe('#eeeeee');
  });

  it('says in words that nothing was reported rather than drawing an empty tokens chart', () => {
    const silent = { ...series, tokens: [0, 0], costs: [] };
    const { getByTestId } = render(UsageChart, { props: { series: silent } });
    expect(getByTestId('usage-chart-empty').textContent).toContain('No agent reported tokens or cost');
    expect(getByTestId('usage-chart').querySelectorAll('canvas')).toHaveLength(1);
    expect(drawn.configs.map((c) => c.data.datasets[0].label)).toEqual(['Turns']);
  });
});
