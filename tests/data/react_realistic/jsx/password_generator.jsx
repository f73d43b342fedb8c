// Password Generator: configurable random passwords and passphrases with entropy-based strength meter, copy to clipboard and history
import { useState, useEffect, useCallback, useMemo } from 'react';
import { Copy, Check, RefreshCw, ShieldCheck, ShieldAlert, Shield, KeyRound, Trash2 } from 'lucide-react';

const SETS = {
  lower: 'abcdefghijklmnopqrstuvwxyz',
  upper: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  digits: '0123456789',
  symbols: '!@#$%^&*()-_=+[]{};:,.?',
};
const AMBIGUOUS = /[O0Il1|]/g;
const WORDS = ['amber', 'canyon', 'delta', 'ember', 'falcon', 'glacier', 'harbor', 'island', 'jasmine', 'kettle', 'lantern', 'meadow', 'nimbus', 'orchid', 'pepper', 'quartz', 'raven', 'saffron', 'timber', 'umbra', 'velvet', 'willow', 'yonder', 'zephyr'];

function randomInt(max) {
  if (window.crypto && window.crypto.getRandomValues) {
    const buf = new Uint32Array(1);
    window.crypto.getRandomValues(buf);
    return buf[0] % max;
  }
  return Math.floor(Math.random() * max);
}

function generatePassword(length, options) {
  const pools = Object.keys(SETS).filter((k) => options[k]).map((k) => (options.noAmbiguous ? SETS[k].replace(AMBIGUOUS, '') : SETS[k]));
  if (!pools.length) return '';
  const all = pools.join('');
  const chars = pools.map((p) => p[randomInt(p.length)]);
  while (chars.length < length) chars.push(all[randomInt(all.length)]);
  for (let i = chars.length - 1; i > 0; i -= 1) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.slice(0, length).join('');
}

function generatePassphrase(count, separator, capitalise) {
  return Array.from({ length: count }, () => {
    const w = WORDS[randomInt(WORDS.length)];
    return capitalise ? w[0].toUpperCase() + w.slice(1) : w;
  }).join(separator);
}

function entropyBits(mode, value, options, words) {
  if (mode === 'phrase') return Math.round(words * Math.log2(WORDS.length));
  const pool = Object.keys(SETS).filter((k) => options[k]).reduce((s, k) => s + SETS[k].length, 0);
  return pool ? Math.round(value.length * Math.log2(pool)) : 0;
}

function strength(bits) {
  if (bits >= 80) return { label: 'Very strong', color: 'bg-emerald-500', Icon: ShieldCheck, text: 'text-emerald-600' };
  if (bits >= 60) return { label: 'Strong', color: 'bg-lime-500', Icon: ShieldCheck, text: 'text-lime-600' };
  if (bits >= 40) return { label: 'Fair', color: 'bg-amber-500', Icon: Shield, text: 'text-amber-600' };
  return { label: 'Weak', color: 'bg-rose-500', Icon: ShieldAlert, text: 'text-rose-600' };
}

export default function App() {
  const [mode, setMode] = useState('random');
  const [length, setLength] = useState(16);
  const [options, setOptions] = useState({ lower: true, upper: true, digits: true, symbols: false, noAmbiguous: true });
  const [words, setWords] = useState(4);
  const [separator, setSeparator] = useState('-');
  const [capitalise, setCapitalise] = useState(true);
  const [value, setValue] = useState('');
  const [copied, setCopied] = useState(false);
  const [history, setHistory] = useState([]);

  const noneSelected = mode === 'random' && !['lower', 'upper', 'digits', 'symbols'].some((k) => options[k]);

  const regenerate = useCallback(() => {
    const next = mode === 'random' ? generatePassword(length, options) : generatePassphrase(words, separator, capitalise);
    setValue(next);
    if (next) setHistory((h) => [next, ...h.filter((x) => x !== next)].slice(0, 6));
  }, [mode, length, options, words, separator, capitalise]);

  useEffect(() => {
    regenerate();
  }, [regenerate]);

  useEffect(() => {
    if (!copied) return undefined;
    const id = setTimeout(() => setCopied(false), 1500);
    return () => clearTimeout(id);
  }, [copied]);

  useEffect(() => {
    const onKey = (e) => {
      if (e.target.tagName === 'INPUT') return;
      if (e.key === 'g') regenerate();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [regenerate]);

  const copy = async (text) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };

  const bits = useMemo(() => entropyBits(mode, value, options, words), [mode, value, options, words]);
  const s = strength(bits);
  const StrengthIcon = s.Icon;

  return (
    <div className="min-h-screen bg-slate-900 flex items-center justify-center p-6">
      <div className="w-full max-w-lg bg-white rounded-2xl shadow-2xl p-8">
        <h1 className="text-2xl font-bold text-slate-800 flex items-center gap-2"><KeyRound className="w-6 h-6 text-indigo-600" /> Password generator</h1>

        <div className="flex bg-slate-100 rounded-lg p-1 mt-6 text-sm">
          {[['random', 'Random characters'], ['phrase', 'Passphrase']].map(([id, label]) => (
            <button key={id} onClick={() => setMode(id)} className={`flex-1 py-2 rounded-md font-medium ${mode === id ? 'bg-white shadow text-slate-900' : 'text-slate-500'}`}>{label}</button>
          ))}
        </div>

        <div className="mt-6 flex items-center gap-2 bg-slate-50 border border-slate-200 rounded-xl px-4 py-3">
          <code className="flex-1 font-mono text-lg text-slate-800 break-all">{noneSelected ? 'Select at least one character set' : value}</code>
          <button onClick={() => copy(value)} disabled={!value || noneSelected} className="p-2 rounded-lg hover:bg-slate-200 disabled:opacity-40" aria-label="Copy password">
            {copied ? <Check className="w-5 h-5 text-emerald-600" /> : <Copy className="w-5 h-5 text-slate-600" />}
          </button>
          <button onClick={regenerate} className="p-2 rounded-lg hover:bg-slate-200" aria-label="Generate new password"><RefreshCw className="w-5 h-5 text-slate-600" /></button>
        </div>

        <div className="mt-3">
          <div className="h-2 bg-slate-100 rounded-full overflow-hidden"><div className={`h-full ${s.color} transition-all`} style={{ width: `${Math.min(100, (bits / 100) * 100)}%` }} /></div>
          <p className={`text-sm mt-1 flex items-center gap-1 ${s.text}`}><StrengthIcon className="w-4 h-4" /> {s.label} · ~{bits} bits of entropy</p>
        </div>

        {mode === 'random' ? (
          <div className="mt-6 space-y-4">
            <label className="block">
              <span className="flex justify-between text-sm text-slate-600"><span>Length</span><span className="font-semibold">{length}</span></span>
              <input type="range" min={6} max={64} value={length} onChange={(e) => setLength(Number(e.target.value))} className="w-full accent-indigo-600" />
            </label>
            <div className="grid grid-cols-2 gap-2 text-sm">
              {[['lower', 'Lowercase (a-z)'], ['upper', 'Uppercase (A-Z)'], ['digits', 'Numbers (0-9)'], ['symbols', 'Symbols (!@#)'], ['noAmbiguous', 'Avoid look-alikes']].map(([key, label]) => (
                <label key={key} className="flex items-center gap-2 bg-slate-50 rounded-lg px-3 py-2 cursor-pointer">
                  <input type="checkbox" checked={options[key]} onChange={(e) => setOptions((o) => ({ ...o, [key]: e.target.checked }))} className="accent-indigo-600" />
                  {label}
                </label>
              ))}
            </div>
          </div>
        ) : (
          <div className="mt-6 space-y-4 text-sm">
            <label className="block">
              <span className="flex justify-between text-slate-600"><span>Words</span><span className="font-semibold">{words}</span></span>
              <input type="range" min={3} max={8} value={words} onChange={(e) => setWords(Number(e.target.value))} className="w-full accent-indigo-600" />
            </label>
            <div className="flex items-center gap-3">
              <span className="text-slate-600">Separator</span>
              {['-', '.', '_', ' '].map((sep) => (
                <button key={sep === ' ' ? 'space' : sep} onClick={() => setSeparator(sep)} className={`w-10 h-9 rounded-lg border font-mono ${separator === sep ? 'border-indigo-600 bg-indigo-50' : 'border-slate-300'}`}>{sep === ' ' ? '␣' : sep}</button>
              ))}
              <label className="flex items-center gap-2 ml-auto"><input type="checkbox" checked={capitalise} onChange={(e) => setCapitalise(e.target.checked)} className="accent-indigo-600" /> Capitalise</label>
            </div>
          </div>
        )}

        {history.length > 1 && (
          <div className="mt-6">
            <div className="flex items-center justify-between text-sm text-slate-500 mb-1">
              <span>Recent</span>
              <button onClick={() => setHistory([])} className="flex items-center gap-1 hover:text-rose-600"><Trash2 className="w-3 h-3" /> Clear</button>
            </div>
            <ul className="space-y-1">
              {history.slice(1).map((h) => (
                <li key={h} className="flex items-center justify-between font-mono text-xs bg-slate-50 rounded px-3 py-1.5">
                  <span className="truncate pr-2 text-slate-600">{h}</span>
                  <button onClick={() => copy(h)} className="text-slate-400 hover:text-slate-700" aria-label="Copy"><Copy className="w-3 h-3" /></button>
                </li>
              ))}
            </ul>
          </div>
        )}
        <p className="text-xs text-slate-400 mt-6 text-center">Press G to generate · passwords never leave your browser</p>
      </div>
    </div>
  );
}
