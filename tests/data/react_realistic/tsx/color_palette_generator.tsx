// Color Palette Generator: harmony-based palette builder with base colour picker, lockable swatches, contrast checks and CSS export
import { useCallback, useEffect, useMemo, useState } from 'react';

type Harmony = 'analogous' | 'complementary' | 'triadic' | 'tetradic' | 'monochrome';

interface Swatch {
  id: number;
  h: number;
  s: number;
  l: number;
  locked: boolean;
}

const HARMONY_OFFSETS: Record<Harmony, number[]> = {
  analogous: [0, 25, 50, -25, -50],
  complementary: [0, 180, 15, 195, -15],
  triadic: [0, 120, 240, 20, 140],
  tetradic: [0, 90, 180, 270, 45],
  monochrome: [0, 0, 0, 0, 0],
};

function hslToHex(h: number, s: number, l: number): string {
  const sat = s / 100;
  const light = l / 100;
  const k = (n: number) => (n + h / 30) % 12;
  const a = sat * Math.min(light, 1 - light);
  const f = (n: number) => light - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return `#${[f(0), f(8), f(4)]
    .map((x) => Math.round(x * 255).toString(16).padStart(2, '0'))
    .join('')}`;
}

function hexToHsl(hex: string): { h: number; s: number; l: number } | null {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return null;
  const int = parseInt(m[1], 16);
  const r = ((int >> 16) & 255) / 255;
  const g = ((int >> 8) & 255) / 255;
  const b = (int & 255) / 255;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  let h = 0;
  let s = 0;
  if (max !== min) {
    const d = max - min;
    s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
    if (max === r) h = (g - b) / d + (g < b ? 6 : 0);
    else if (max === g) h = (b - r) / d + 2;
    else h = (r - g) / d + 4;
    h *= 60;
  }
  return { h: Math.round(h), s: Math.round(s * 100), l: Math.round(l * 100) };
}

function luminance(hex: string): number {
  const int = parseInt(hex.slice(1), 16);
  const channel = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * channel((int >> 16) & 255) + 0.7152 * channel((int >> 8) & 255) + 0.0722 * channel(int & 255);
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const wrap = (h: number) => ((h % 360) + 360) % 360;

function generate(base: { h: number; s: number; l: number }, harmony: Harmony, previous: Swatch[]): Swatch[] {
  return HARMONY_OFFSETS[harmony].map((offset, i) => {
    const old = previous[i];
    if (old?.locked) return old;
    const l = harmony === 'monochrome' ? 15 + i * 18 : Math.max(20, Math.min(85, base.l + (i % 2 === 0 ? 0 : 12) - i * 3));
    return { id: i, h: wrap(base.h + offset), s: base.s, l, locked: false };
  });
}

export default function App() {
  const [baseHex, setBaseHex] = useState('#3b82f6');
  const [hexInput, setHexInput] = useState('#3b82f6');
  const [harmony, setHarmony] = useState<Harmony>('analogous');
  const [swatches, setSwatches] = useState<Swatch[]>(() => generate(hexToHsl('#3b82f6') ?? { h: 217, s: 91, l: 60 }, 'analogous', []));
  const [copied, setCopied] = useState<string | null>(null);

  const base = useMemo(() => hexToHsl(baseHex) ?? { h: 217, s: 91, l: 60 }, [baseHex]);

  const regenerate = useCallback(() => setSwatches((prev) => generate(base, harmony, prev)), [base, harmony]);

  useEffect(() => {
    regenerate();
  }, [regenerate]);

  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(null), 1500);
    return () => clearTimeout(t);
  }, [copied]);

  const randomize = () => {
    const hex = hslToHex(Math.floor(Math.random() * 360), 55 + Math.floor(Math.random() * 35), 45 + Math.floor(Math.random() * 15));
    setBaseHex(hex);
    setHexInput(hex);
  };

  const copy = async (text: string, label: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(`Copied ${label}`);
    } catch {
      setCopied('Clipboard unavailable');
    }
  };

  const hexes = swatches.map((s) => hslToHex(s.h, s.s, s.l));
  const cssVars = hexes.map((h, i) => `  --color-${i + 1}: ${h};`).join('\n');
  const inputValid = hexToHsl(hexInput) !== null;

  return (
    <div className="min-h-screen bg-neutral-50 p-8 text-neutral-800">
      <div className="mx-auto max-w-5xl">
        <header className="mb-6 flex flex-wrap items-center gap-4">
          <h1 className="mr-auto text-2xl font-bold">Palette generator</h1>
          <input type="color" value={baseHex} onChange={(e) => {
            setBaseHex(e.target.value);
            setHexInput(e.target.value);
          }} className="h-10 w-14 cursor-pointer rounded border border-neutral-300" aria-label="Base colour" />
          <div>
            <input
              value={hexInput}
              onChange={(e) => {
                setHexInput(e.target.value);
                if (hexToHsl(e.target.value)) setBaseHex(e.target.value.startsWith('#') ? e.target.value : `#${e.target.value}`);
              }}
              className={`w-28 rounded-lg border px-3 py-2 font-mono text-sm ${inputValid ? 'border-neutral-300' : 'border-red-400 bg-red-50'}`}
            />
            {!inputValid && <div className="text-xs text-red-600">Use #RRGGBB</div>}
          </div>
          <select value={harmony} onChange={(e) => setHarmony(e.target.value as Harmony)} className="rounded-lg border border-neutral-300 px-3 py-2 text-sm capitalize">
            {(Object.keys(HARMONY_OFFSETS) as Harmony[]).map((h) => (
              <option key={h} value={h}>
                {h}
              </option>
            ))}
          </select>
          <button onClick={randomize} className="rounded-lg bg-neutral-900 px-4 py-2 text-sm font-semibold text-white">
            Random
          </button>
        </header>

        <div className="flex h-80 overflow-hidden rounded-2xl shadow-lg">
          {swatches.map((s, i) => {
            const hex = hexes[i];
            const textColor = luminance(hex) > 0.4 ? '#111827' : '#ffffff';
            return (
              <div key={s.id} className="group flex flex-1 flex-col items-center justify-end gap-2 pb-6 transition-all hover:flex-[1.3]" style={{ backgroundColor: hex, color: textColor }}>
                <button onClick={() => setSwatches((list) => list.map((x) => (x.id === s.id ? { ...x, locked: !x.locked } : x)))} className="rounded-full bg-black/10 px-3 py-1 text-xs font-semibold">
                  {s.locked ? 'Locked' : 'Lock'}
                </button>
                <button onClick={() => copy(hex, hex)} className="font-mono text-lg font-bold uppercase">
                  {hex}
                </button>
                <span className="text-xs opacity-80">
                  hsl({s.h}, {s.s}%, {s.l}%)
                </span>
              </div>
            );
          })}
        </div>

        <div className="mt-8 grid grid-cols-2 gap-6">
          <section className="rounded-2xl bg-white p-5 shadow-sm">
            <h2 className="mb-3 font-semibold">Contrast on white and black</h2>
            <table className="w-full text-sm">
              <thead className="text-left text-neutral-500">
                <tr>
                  <th className="pb-2 font-medium">Colour</th>
                  <th className="pb-2 font-medium">vs white</th>
                  <th className="pb-2 font-medium">vs black</th>
                </tr>
              </thead>
              <tbody>
                {hexes.map((hex, i) => {
                  const w = contrast(hex, '#ffffff');
                  const b = contrast(hex, '#000000');
                  const grade = (r: number) => (r >= 7 ? 'AAA' : r >= 4.5 ? 'AA' : r >= 3 ? 'AA large' : 'Fail');
                  return (
                    <tr key={`${hex}-${i}`} className="border-t border-neutral-100">
                      <td className="py-1.5">
                        <span className="mr-2 inline-block h-3 w-3 rounded-sm align-middle" style={{ backgroundColor: hex }} />
                        <span className="font-mono">{hex}</span>
                      </td>
                      <td className={`py-1.5 ${w >= 4.5 ? 'text-green-700' : 'text-neutral-400'}`}>
                        {w.toFixed(2)} · {grade(w)}
                      </td>
                      <td className={`py-1.5 ${b >= 4.5 ? 'text-green-700' : 'text-neutral-400'}`}>
                        {b.toFixed(2)} · {grade(b)}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </section>
          <section className="rounded-2xl bg-white p-5 shadow-sm">
            <div className="mb-3 flex items-center justify-between">
              <h2 className="font-semibold">CSS variables</h2>
              <button onClick={() => copy(`:root {\n${cssVars}\n}`, 'CSS')} className="rounded-md border border-neutral-300 px-3 py-1 text-xs hover:bg-neutral-50">
                Copy
              </button>
            </div>
            <pre className="rounded-lg bg-neutral-900 p-4 font-mono text-xs text-neutral-100">{`:root {\n${cssVars}\n}`}</pre>
          </section>
        </div>
      </div>
      {copied && <div className="fixed bottom-6 left-1/2 -translate-x-1/2 rounded-full bg-neutral-900 px-4 py-2 text-sm text-white">{copied}</div>}
    </div>
  );
}
