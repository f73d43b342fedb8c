// Typing Speed Test: timed passages with live WPM and accuracy, per-character highlighting, results chart and attempt history
import { useState, useEffect, useRef, useMemo, useCallback } from 'react';
import { LineChart, Line, XAxis, YAxis, Tooltip, ResponsiveContainer, CartesianGrid } from 'recharts';

const PASSAGES = [
  'The quick brown fox jumps over the lazy dog while the farmer watches from the porch with a cup of coffee.',
  'Good software is built in small steps: write a little, test a little, and keep every change easy to undo.',
  'A lighthouse keeper counted the ships each evening and wrote their names in a notebook bound with twine.',
  'Rain drummed on the tin roof as the children built a fort out of blankets, chairs and old cardboard boxes.',
  'Practice does not make perfect; it makes permanent, so practise slowly and carefully before you speed up.',
];

const DURATIONS = [15, 30, 60];

function useTicker(active, onTick) {
  const cb = useRef(onTick);
  useEffect(() => {
    cb.current = onTick;
  }, [onTick]);
  useEffect(() => {
    if (!active) return undefined;
    const id = setInterval(() => cb.current(), 1000);
    return () => clearInterval(id);
  }, [active]);
}

function computeStats(text, typed, elapsedSec) {
  let correct = 0;
  for (let i = 0; i < typed.length; i += 1) if (typed[i] === text[i]) correct += 1;
  const minutes = Math.max(elapsedSec, 1) / 60;
  return {
    correct,
    errors: typed.length - correct,
    wpm: Math.round(correct / 5 / minutes),
    raw: Math.round(typed.length / 5 / minutes),
    accuracy: typed.length ? Math.round((correct / typed.length) * 100) : 100,
  };
}

export default function App() {
  const [duration, setDuration] = useState(30);
  const [passageIndex, setPassageIndex] = useState(0);
  const [typed, setTyped] = useState('');
  const [status, setStatus] = useState('idle'); // idle | running | done
  const [elapsed, setElapsed] = useState(0);
  const [samples, setSamples] = useState([]);
  const [history, setHistory] = useState([]);
  const inputRef = useRef(null);

  const text = PASSAGES[passageIndex];
  const stats = useMemo(() => computeStats(text, typed, elapsed), [text, typed, elapsed]);
  const timeLeft = duration - elapsed;

  const finish = useCallback((finalElapsed) => {
    setStatus('done');
    const final = computeStats(text, typed, finalElapsed);
    setHistory((h) => [{ id: Date.now(), wpm: final.wpm, accuracy: final.accuracy, duration }, ...h].slice(0, 8));
  }, [text, typed, duration]);

  const tick = useCallback(() => {
    const next = elapsed + 1;
    setElapsed(next);
    setSamples((s) => [...s, { second: next, wpm: computeStats(text, typed, next).wpm }]);
    if (next >= duration) finish(next);
  }, [elapsed, text, typed, duration, finish]);

  useTicker(status === 'running', tick);

  useEffect(() => {
    if (inputRef.current) inputRef.current.focus();
  }, [passageIndex]);

  const reset = useCallback((nextPassage) => {
    setTyped('');
    setElapsed(0);
    setSamples([]);
    setStatus('idle');
    if (typeof nextPassage === 'number') setPassageIndex(nextPassage);
    if (inputRef.current) inputRef.current.focus();
  }, []);

  useEffect(() => {
    const onKey = (e) => {
      if (e.key === 'Tab') {
        e.preventDefault();
        reset((passageIndex + 1) % PASSAGES.length);
      } else if (e.key === 'Escape') {
        reset();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [passageIndex, reset]);

  const onChange = (e) => {
    if (status === 'done') return;
    const value = e.target.value.slice(0, text.length);
    if (status === 'idle' && value.length) setStatus('running');
    setTyped(value);
    if (value.length === text.length) finish(Math.max(elapsed, 1));
  };

  const best = history.reduce((m, h) => Math.max(m, h.wpm), 0);

  return (
    <div className="min-h-screen bg-neutral-900 text-neutral-200 font-mono flex flex-col items-center py-16 px-6" onClick={() => inputRef.current && inputRef.current.focus()}>
      <h1 className="text-3xl font-bold text-yellow-400 tracking-tight">typefast</h1>
      <div className="flex gap-2 mt-6 text-sm">
        {DURATIONS.map((d) => (
          <button key={d} onClick={(e) => { e.stopPropagation(); setDuration(d); reset(); }} className={`px-3 py-1 rounded ${duration === d ? 'bg-yellow-400 text-neutral-900' : 'bg-neutral-800 hover:bg-neutral-700'}`}>{d}s</button>
        ))}
      </div>

      <div className="flex gap-10 mt-8 text-center">
        <div><p className="text-4xl text-yellow-400">{status === 'idle' ? duration : Math.max(0, timeLeft)}</p><p className="text-xs text-neutral-500">seconds</p></div>
        <div><p className="text-4xl">{status === 'idle' ? 0 : stats.wpm}</p><p className="text-xs text-neutral-500">wpm</p></div>
        <div><p className="text-4xl">{stats.accuracy}%</p><p className="text-xs text-neutral-500">accuracy</p></div>
        <div><p className="text-4xl text-rose-400">{stats.errors}</p><p className="text-xs text-neutral-500">errors</p></div>
      </div>

      <div className="relative max-w-3xl mt-10 text-2xl leading-relaxed select-none">
        {text.split('').map((ch, i) => {
          let cls = 'text-neutral-600';
          if (i < typed.length) cls = typed[i] === ch ? 'text-neutral-100' : 'text-rose-500 bg-rose-500/20';
          const caret = i === typed.length && status !== 'done';
          return (
            <span key={i} className={`${cls} ${caret ? 'border-l-2 border-yellow-400 animate-pulse' : ''}`}>{ch}</span>
          );
        })}
        <input
          ref={inputRef}
          value={typed}
          onChange={onChange}
          disabled={status === 'done'}
          className="absolute inset-0 opacity-0 cursor-default"
          autoComplete="off"
          autoCorrect="off"
          spellCheck={false}
          aria-label="Type the passage"
        />
      </div>
      <p className="text-xs text-neutral-500 mt-6">tab: new passage · esc: restart</p>

      {status === 'done' && (
        <div className="mt-10 w-full max-w-3xl bg-neutral-800 rounded-xl p-6" onClick={(e) => e.stopPropagation()}>
          <div className="flex items-center justify-between">
            <h2 className="text-xl text-yellow-400">Result: {stats.wpm} wpm</h2>
            <p className="text-sm text-neutral-400">raw {stats.raw} · {stats.correct} correct chars · {stats.accuracy}% accurate</p>
          </div>
          <div className="h-48 mt-4">
            <ResponsiveContainer width="100%" height="100%">
              <LineChart data={samples}>
                <CartesianGrid stroke="#404040" strokeDasharray="3 3" />
                <XAxis dataKey="second" stroke="#a3a3a3" tick={{ fontSize: 11 }} />
                <YAxis stroke="#a3a3a3" tick={{ fontSize: 11 }} width={30} />
                <Tooltip contentStyle={{ background: '#262626', border: 'none' }} />
                <Line type="monotone" dataKey="wpm" stroke="#facc15" strokeWidth={2} dot={false} />
              </LineChart>
            </ResponsiveContainer>
          </div>
          <div className="flex gap-3 mt-4">
            <button onClick={() => reset()} className="bg-yellow-400 text-neutral-900 px-4 py-2 rounded font-semibold">Try again</button>
            <button onClick={() => reset((passageIndex + 1) % PASSAGES.length)} className="bg-neutral-700 px-4 py-2 rounded">Next passage</button>
          </div>
        </div>
      )}

      {history.length > 0 && (
        <div className="mt-8 w-full max-w-3xl">
          <h3 className="text-sm text-neutral-400 mb-2">Recent attempts · best {best} wpm</h3>
          <ul className="grid grid-cols-4 gap-2 text-sm">
            {history.map((h) => (
              <li key={h.id} className={`rounded-lg px-3 py-2 bg-neutral-800 ${h.wpm === best ? 'ring-1 ring-yellow-400' : ''}`}>
                {h.wpm} wpm <span className="text-neutral-500">· {h.accuracy}% · {h.duration}s</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
