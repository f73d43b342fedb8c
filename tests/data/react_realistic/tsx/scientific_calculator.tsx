// Scientific Calculator: expression calculator with a recursive-descent parser, functions, memory keys, history tape and keyboard input
import { useCallback, useEffect, useState } from 'react';
import { Delete, History, Trash2 } from 'lucide-react';

type AngleMode = 'deg' | 'rad';

interface HistoryEntry {
  id: number;
  expression: string;
  result: string;
}

type Token = { kind: 'num'; value: number } | { kind: 'op'; value: string } | { kind: 'ident'; value: string } | { kind: 'paren'; value: '(' | ')' };

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i];
    if (ch === ' ') {
      i++;
    } else if (/[0-9.]/.test(ch)) {
      let j = i;
      while (j < src.length && /[0-9.]/.test(src[j])) j++;
      const value = Number(src.slice(i, j));
      if (Number.isNaN(value)) throw new Error('Bad number');
      tokens.push({ kind: 'num', value });
      i = j;
    } else if (/[a-zπ]/i.test(ch)) {
      let j = i;
      while (j < src.length && /[a-zπ]/i.test(src[j])) j++;
      tokens.push({ kind: 'ident', value: src.slice(i, j).toLowerCase() });
      i = j;
    } else if ('+-*/^%!'.includes(ch)) {
      tokens.push({ kind: 'op', value: ch });
      i++;
    } else if (ch === '(' || ch === ')') {
      tokens.push({ kind: 'paren', value: ch });
      i++;
    } else {
      throw new Error(`Unexpected "${ch}"`);
    }
  }
  return tokens;
}

function factorial(n: number): number {
  if (n < 0 || !Number.isInteger(n)) throw new Error('Factorial needs a whole number');
  if (n > 170) return Infinity;
  let r = 1;
  for (let k = 2; k <= n; k++) r *= k;
  return r;
}

function evaluate(src: string, mode: AngleMode): number {
  const tokens = tokenize(src);
  let pos = 0;
  const toRad = (x: number) => (mode === 'deg' ? (x * Math.PI) / 180 : x);
  const fns: Record<string, (x: number) => number> = {
    sin: (x) => Math.sin(toRad(x)),
    cos: (x) => Math.cos(toRad(x)),
    tan: (x) => Math.tan(toRad(x)),
    sqrt: Math.sqrt,
    ln: Math.log,
    log: Math.log10,
    abs: Math.abs,
  };
  const peek = (): Token | undefined => tokens[pos];

  function primary(): number {
    const t = tokens[pos++];
    if (!t) throw new Error('Incomplete expression');
    if (t.kind === 'num') return t.value;
    if (t.kind === 'op' && t.value === '-') return -power();
    if (t.kind === 'paren' && t.value === '(') {
      const v = expr();
      const close = tokens[pos++];
      if (!close || close.kind !== 'paren' || close.value !== ')') throw new Error('Missing )');
      return v;
    }
    if (t.kind === 'ident') {
      if (t.value === 'pi' || t.value === 'π') return Math.PI;
      if (t.value === 'e') return Math.E;
      const fn = fns[t.value];
      if (!fn) throw new Error(`Unknown function ${t.value}`);
      return fn(primary());
    }
    throw new Error('Syntax error');
  }

  function postfix(): number {
    let v = primary();
    let t = peek();
    while (t && t.kind === 'op' && (t.value === '!' || t.value === '%')) {
      pos++;
      v = t.value === '!' ? factorial(v) : v / 100;
      t = peek();
    }
    return v;
  }

  function power(): number {
    const base = postfix();
    const t = peek();
    if (t && t.kind === 'op' && t.value === '^') {
      pos++;
      return Math.pow(base, power());
    }
    return base;
  }

  function term(): number {
    let v = power();
    let t = peek();
    while (t && t.kind === 'op' && (t.value === '*' || t.value === '/')) {
      pos++;
      const rhs = power();
      v = t.value === '*' ? v * rhs : v / rhs;
      t = peek();
    }
    return v;
  }

  function expr(): number {
    let v = term();
    let t = peek();
    while (t && t.kind === 'op' && (t.value === '+' || t.value === '-')) {
      pos++;
      const rhs = term();
      v = t.value === '+' ? v + rhs : v - rhs;
      t = peek();
    }
    return v;
  }

  const result = expr();
  if (pos < tokens.length) throw new Error('Unexpected input');
  return result;
}

function formatResult(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? '∞' : 'Error';
  if (Math.abs(n) >= 1e12 || (Math.abs(n) < 1e-6 && n !== 0)) return n.toExponential(6);
  return String(Number(n.toPrecision(12)));
}

const KEYS: { label: string; insert?: string; wide?: boolean; kind: 'fn' | 'num' | 'op' }[] = [
  { label: 'sin', insert: 'sin(', kind: 'fn' },
  { label: 'cos', insert: 'cos(', kind: 'fn' },
  { label: 'tan', insert: 'tan(', kind: 'fn' },
  { label: '(', kind: 'fn' },
  { label: ')', kind: 'fn' },
  { label: 'ln', insert: 'ln(', kind: 'fn' },
  { label: 'log', insert: 'log(', kind: 'fn' },
  { label: '√', insert: 'sqrt(', kind: 'fn' },
  { label: 'xʸ', insert: '^', kind: 'fn' },
  { label: 'n!', insert: '!', kind: 'fn' },
  { label: '7', kind: 'num' },
  { label: '8', kind: 'num' },
  { label: '9', kind: 'num' },
  { label: '÷', insert: '/', kind: 'op' },
  { label: 'π', insert: 'pi', kind: 'fn' },
  { label: '4', kind: 'num' },
  { label: '5', kind: 'num' },
  { label: '6', kind: 'num' },
  { label: '×', insert: '*', kind: 'op' },
  { label: 'e', kind: 'fn' },
  { label: '1', kind: 'num' },
  { label: '2', kind: 'num' },
  { label: '3', kind: 'num' },
  { label: '−', insert: '-', kind: 'op' },
  { label: '%', kind: 'fn' },
  { label: '0', kind: 'num', wide: true },
  { label: '.', kind: 'num' },
  { label: '+', kind: 'op' },
];

export default function App() {
  const [input, setInput] = useState('');
  const [preview, setPreview] = useState('');
  const [error, setError] = useState('');
  const [mode, setMode] = useState<AngleMode>('deg');
  const [memory, setMemory] = useState(0);
  const [history, setHistory] = useState<HistoryEntry[]>([]);

  useEffect(() => {
    if (!input) {
      setPreview('');
      return;
    }
    try {
      setPreview(formatResult(evaluate(input, mode)));
    } catch {
      setPreview('');
    }
  }, [input, mode]);

  const append = useCallback((s: string) => {
    setError('');
    setInput((v) => v + s);
  }, []);

  const calculate = useCallback(() => {
    if (!input.trim()) return;
    try {
      const result = formatResult(evaluate(input, mode));
      setHistory((h) => [{ id: Date.now(), expression: input, result }, ...h].slice(0, 20));
      setInput(result === 'Error' || result === '∞' ? '' : result);
      setError(result === 'Error' ? 'Math error' : '');
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Error');
    }
  }, [input, mode]);

  const backspace = useCallback(() => setInput((v) => v.slice(0, -1)), []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLInputElement) return;
      if (/^[0-9.+\-*/^()%!]$/.test(e.key)) append(e.key);
      else if (e.key === 'Enter' || e.key === '=') {
        e.preventDefault();
        calculate();
      } else if (e.key === 'Backspace') backspace();
      else if (e.key === 'Escape') setInput('');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [append, calculate, backspace]);

  const currentValue = (): number => {
    try {
      return evaluate(input || '0', mode);
    } catch {
      return 0;
    }
  };

  return (
    <div className="flex min-h-screen items-center justify-center gap-6 bg-zinc-900 p-6 text-white">
      <div className="w-[360px] rounded-3xl bg-zinc-800 p-5 shadow-2xl">
        <div className="mb-3 flex items-center justify-between text-xs">
          <div className="flex overflow-hidden rounded-full bg-zinc-700">
            {(['deg', 'rad'] as AngleMode[]).map((m) => (
              <button key={m} onClick={() => setMode(m)} className={`px-3 py-1 uppercase ${mode === m ? 'bg-orange-500 text-white' : 'text-zinc-300'}`}>
                {m}
              </button>
            ))}
          </div>
          <span className="text-zinc-400">{memory !== 0 ? `M = ${formatResult(memory)}` : 'Memory empty'}</span>
        </div>
        <div className="mb-4 rounded-2xl bg-zinc-950 p-4 text-right">
          <div className="min-h-[28px] break-all font-mono text-lg text-zinc-400">{input || '0'}</div>
          <div className="mt-1 min-h-[40px] font-mono text-3xl font-light">{error ? <span className="text-base text-red-400">{error}</span> : preview}</div>
        </div>
        <div className="mb-2 grid grid-cols-5 gap-2">
          {[
            ['MC', () => setMemory(0)],
            ['MR', () => append(formatResult(memory))],
            ['M+', () => setMemory((m) => m + currentValue())],
            ['M−', () => setMemory((m) => m - currentValue())],
          ].map(([label, fn]) => (
            <button key={label as string} onClick={fn as () => void} className="rounded-lg bg-zinc-700 py-1.5 text-xs text-zinc-300 hover:bg-zinc-600">
              {label as string}
            </button>
          ))}
          <button onClick={backspace} className="flex items-center justify-center rounded-lg bg-zinc-700 py-1.5 hover:bg-zinc-600" aria-label="Backspace">
            <Delete size={16} />
          </button>
        </div>
        <div className="grid grid-cols-5 gap-2">
          {KEYS.map((k) => (
            <button
              key={k.label}
              onClick={() => append(k.insert ?? k.label)}
              className={`rounded-xl py-3 text-lg transition active:scale-95 ${k.wide ? 'col-span-2' : ''} ${
                k.kind === 'num' ? 'bg-zinc-600 hover:bg-zinc-500' : k.kind === 'op' ? 'bg-orange-500 hover:bg-orange-400' : 'bg-zinc-700 text-sm hover:bg-zinc-600'
              }`}
            >
              {k.label}
            </button>
          ))}
          <button onClick={() => setInput('')} className="rounded-xl bg-red-500/80 py-3 text-lg hover:bg-red-500">
            AC
          </button>
          <button onClick={calculate} className="col-span-5 rounded-xl bg-orange-500 py-3 text-xl font-semibold hover:bg-orange-400">
            =
          </button>
        </div>
      </div>

      <aside className="w-72 rounded-3xl bg-zinc-800 p-5">
        <div className="mb-3 flex items-center justify-between">
          <h2 className="flex items-center gap-2 font-semibold">
            <History size={16} /> History
          </h2>
          {history.length > 0 && (
            <button onClick={() => setHistory([])} className="text-zinc-400 hover:text-red-400" aria-label="Clear history">
              <Trash2 size={16} />
            </button>
          )}
        </div>
        {history.length === 0 ? (
          <p className="text-sm text-zinc-500">Calculations you run will appear here.</p>
        ) : (
          <ul className="max-h-[480px] space-y-2 overflow-y-auto">
            {history.map((h) => (
              <li key={h.id}>
                <button onClick={() => setInput(h.expression)} className="w-full rounded-lg bg-zinc-900 p-2 text-right hover:bg-zinc-700">
                  <div className="truncate font-mono text-xs text-zinc-400">{h.expression}</div>
                  <div className="font-mono text-lg">= {h.result}</div>
                </button>
              </li>
            ))}
          </ul>
        )}
      </aside>
    </div>
  );
}
