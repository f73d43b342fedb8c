// Pomodoro Focus Timer: work/break cycles with a progress ring, task list, settings and keyboard shortcuts
import { useState, useEffect, useRef, useReducer, useMemo } from 'react';
import { Play, Pause, RotateCcw, SkipForward, Settings, Coffee, Brain, Plus, Check, X } from 'lucide-react';

const MODES = {
  focus: { label: 'Focus', color: 'text-rose-500', ring: '#f43f5e', bg: 'bg-rose-50' },
  short: { label: 'Short break', color: 'text-teal-500', ring: '#14b8a6', bg: 'bg-teal-50' },
  long: { label: 'Long break', color: 'text-indigo-500', ring: '#6366f1', bg: 'bg-indigo-50' },
};

const initialTimer = { mode: 'focus', secondsLeft: 25 * 60, running: false, completedFocus: 0 };

function timerReducer(state, action) {
  switch (action.type) {
    case 'tick':
      return { ...state, secondsLeft: Math.max(0, state.secondsLeft - 1) };
    case 'toggle':
      return { ...state, running: !state.running };
    case 'reset':
      return { ...state, running: false, secondsLeft: action.durations[state.mode] * 60 };
    case 'switch':
      return { ...state, mode: action.mode, running: false, secondsLeft: action.durations[action.mode] * 60 };
    case 'finish': {
      const completedFocus = state.mode === 'focus' ? state.completedFocus + 1 : state.completedFocus;
      let next = 'focus';
      if (state.mode === 'focus') next = completedFocus % action.longEvery === 0 ? 'long' : 'short';
      return { ...state, mode: next, running: action.autoStart, completedFocus, secondsLeft: action.durations[next] * 60 };
    }
    default:
      return state;
  }
}

function formatTime(total) {
  const m = Math.floor(total / 60);
  const s = total % 60;
  return `${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

function ProgressRing({ progress, color, children }) {
  const radius = 120;
  const circumference = 2 * Math.PI * radius;
  const offset = circumference * (1 - progress);
  return (
    <div className="relative w-72 h-72">
      <svg className="w-full h-full -rotate-90" viewBox="0 0 260 260">
        <circle cx="130" cy="130" r={radius} fill="none" stroke="#e5e7eb" strokeWidth="10" />
        <circle
          cx="130"
          cy="130"
          r={radius}
          fill="none"
          stroke={color}
          strokeWidth="10"
          strokeLinecap="round"
          strokeDasharray={circumference}
          strokeDashoffset={offset}
          style={{ transition: 'stroke-dashoffset 0.5s linear' }}
        />
      </svg>
      <div className="absolute inset-0 flex flex-col items-center justify-center">{children}</div>
    </div>
  );
}

export default function App() {
  const [durations, setDurations] = useState({ focus: 25, short: 5, long: 15 });
  const [longEvery, setLongEvery] = useState(4);
  const [autoStart, setAutoStart] = useState(false);
  const [showSettings, setShowSettings] = useState(false);
  const [timer, dispatch] = useReducer(timerReducer, initialTimer);
  const [tasks, setTasks] = useState([
    { id: 1, title: 'Outline quarterly report', pomodoros: 2, done: false },
    { id: 2, title: 'Review pull requests', pomodoros: 1, done: true },
  ]);
  const [taskTitle, setTaskTitle] = useState('');
  const [taskEstimate, setTaskEstimate] = useState(1);
  const [taskError, setTaskError] = useState('');
  const finishRef = useRef(null);

  finishRef.current = () => dispatch({ type: 'finish', durations, longEvery, autoStart });

  useEffect(() => {
    if (!timer.running) return undefined;
    const id = setInterval(() => dispatch({ type: 'tick' }), 1000);
    return () => clearInterval(id);
  }, [timer.running]);

  useEffect(() => {
    if (timer.secondsLeft === 0) {
      const id = setTimeout(() => finishRef.current(), 300);
      return () => clearTimeout(id);
    }
    return undefined;
  }, [timer.secondsLeft]);

  useEffect(() => {
    document.title = `${formatTime(timer.secondsLeft)} · ${MODES[timer.mode].label}`;
  }, [timer.secondsLeft, timer.mode]);

  useEffect(() => {
    const onKey = (e) => {
      if (e.target.tagName === 'INPUT') return;
      if (e.code === 'Space') {
        e.preventDefault();
        dispatch({ type: 'toggle' });
      } else if (e.key === 'r') {
        dispatch({ type: 'reset', durations });
      } else if (e.key === 'n') {
        finishRef.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [durations]);

  const total = durations[timer.mode] * 60;
  const progress = total ? 1 - timer.secondsLeft / total : 0;
  const mode = MODES[timer.mode];

  const stats = useMemo(() => {
    const remaining = tasks.filter((t) => !t.done);
    const pomodorosLeft = remaining.reduce((s, t) => s + t.pomodoros, 0);
    const minutes = pomodorosLeft * durations.focus;
    const finish = new Date(Date.now() + minutes * 60000);
    return { remaining: remaining.length, pomodorosLeft, finish: finish.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) };
  }, [tasks, durations.focus]);

  const addTask = (e) => {
    e.preventDefault();
    if (!taskTitle.trim()) {
      setTaskError('Give the task a title.');
      return;
    }
    if (taskEstimate < 1 || taskEstimate > 12) {
      setTaskError('Estimate between 1 and 12 pomodoros.');
      return;
    }
    setTasks((prev) => [...prev, { id: Date.now(), title: taskTitle.trim(), pomodoros: Number(taskEstimate), done: false }]);
    setTaskTitle('');
    setTaskEstimate(1);
    setTaskError('');
  };

  const updateDuration = (key, value) => {
    const n = Math.min(90, Math.max(1, Number(value) || 1));
    setDurations((prev) => ({ ...prev, [key]: n }));
  };

  return (
    <div className={`min-h-screen ${mode.bg} transition-colors duration-500`}>
      <div className="max-w-4xl mx-auto px-6 py-10 grid grid-cols-5 gap-8">
        <div className="col-span-3 bg-white rounded-2xl shadow p-8 flex flex-col items-center">
          <div className="flex gap-2 mb-8">
            {Object.entries(MODES).map(([key, m]) => (
              <button
                key={key}
                onClick={() => dispatch({ type: 'switch', mode: key, durations })}
                className={`px-4 py-1.5 rounded-full text-sm font-medium ${timer.mode === key ? 'bg-slate-900 text-white' : 'bg-slate-100 text-slate-600 hover:bg-slate-200'}`}
              >
                {m.label}
              </button>
            ))}
          </div>
          <ProgressRing progress={progress} color={mode.ring}>
            {timer.mode === 'focus' ? <Brain className={`w-8 h-8 ${mode.color}`} /> : <Coffee className={`w-8 h-8 ${mode.color}`} />}
            <span className="text-6xl font-mono font-bold text-slate-800 mt-2">{formatTime(timer.secondsLeft)}</span>
            <span className="text-sm text-slate-500 mt-1">Session #{timer.completedFocus + 1}</span>
          </ProgressRing>
          <div className="flex items-center gap-4 mt-8">
            <button onClick={() => dispatch({ type: 'reset', durations })} className="p-3 rounded-full bg-slate-100 hover:bg-slate-200" aria-label="Reset">
              <RotateCcw className="w-5 h-5" />
            </button>
            <button
              onClick={() => dispatch({ type: 'toggle' })}
              className="px-8 py-4 rounded-full bg-slate-900 text-white font-semibold flex items-center gap-2 hover:bg-slate-700"
            >
              {timer.running ? <Pause className="w-5 h-5" /> : <Play className="w-5 h-5" />}
              {timer.running ? 'Pause' : 'Start'}
            </button>
            <button onClick={() => finishRef.current()} className="p-3 rounded-full bg-slate-100 hover:bg-slate-200" aria-label="Skip">
              <SkipForward className="w-5 h-5" />
            </button>
          </div>
          <p className="text-xs text-slate-400 mt-6">Space to start/pause · R to reset · N for next</p>
        </div>

        <div className="col-span-2 flex flex-col gap-6">
          <div className="bg-white rounded-2xl shadow p-5">
            <div className="flex items-center justify-between mb-3">
              <h2 className="font-semibold text-slate-800">Tasks</h2>
              <span className="text-xs text-slate-500">{stats.remaining} left · done by {stats.finish}</span>
            </div>
            <ul className="space-y-2 mb-4">
              {tasks.map((t) => (
                <li key={t.id} className="flex items-center gap-2 group">
                  <button
                    onClick={() => setTasks((prev) => prev.map((x) => (x.id === t.id ? { ...x, done: !x.done } : x)))}
                    className={`w-5 h-5 rounded border flex items-center justify-center ${t.done ? 'bg-emerald-500 border-emerald-500 text-white' : 'border-slate-300'}`}
                  >
                    {t.done && <Check className="w-3 h-3" />}
                  </button>
                  <span className={`flex-1 text-sm ${t.done ? 'line-through text-slate-400' : 'text-slate-700'}`}>{t.title}</span>
                  <span className="text-xs text-slate-400">{t.pomodoros}×</span>
                  <button onClick={() => setTasks((prev) => prev.filter((x) => x.id !== t.id))} className="opacity-0 group-hover:opacity-100 text-slate-400 hover:text-rose-500">
                    <X className="w-4 h-4" />
                  </button>
                </li>
              ))}
            </ul>
            <form onSubmit={addTask} className="flex gap-2">
              <input value={taskTitle} onChange={(e) => setTaskTitle(e.target.value)} placeholder="What are you working on?" className="flex-1 border border-slate-200 rounded-lg px-3 py-1.5 text-sm" />
              <input type="number" value={taskEstimate} onChange={(e) => setTaskEstimate(e.target.value)} className="w-14 border border-slate-200 rounded-lg px-2 text-sm" />
              <button className="bg-slate-900 text-white rounded-lg px-2" aria-label="Add task"><Plus className="w-4 h-4" /></button>
            </form>
            {taskError && <p className="text-xs text-rose-600 mt-2">{taskError}</p>}
          </div>

          <div className="bg-white rounded-2xl shadow p-5">
            <button onClick={() => setShowSettings((s) => !s)} className="w-full flex items-center justify-between font-semibold text-slate-800">
              <span className="flex items-center gap-2"><Settings className="w-4 h-4" /> Settings</span>
              <span className="text-xs text-slate-400">{showSettings ? 'Hide' : 'Show'}</span>
            </button>
            {showSettings && (
              <div className="mt-4 space-y-3 text-sm">
                {Object.keys(MODES).map((key) => (
                  <label key={key} className="flex items-center justify-between">
                    <span className="text-slate-600">{MODES[key].label} (min)</span>
                    <input type="number" value={durations[key]} onChange={(e) => updateDuration(key, e.target.value)} className="w-20 border border-slate-200 rounded px-2 py-1" />
                  </label>
                ))}
                <label className="flex items-center justify-between">
                  <span className="text-slate-600">Long break every</span>
                  <select value={longEvery} onChange={(e) => setLongEvery(Number(e.target.value))} className="border border-slate-200 rounded px-2 py-1">
                    {[2, 3, 4, 5, 6].map((n) => <option key={n} value={n}>{n} sessions</option>)}
                  </select>
                </label>
                <label className="flex items-center gap-2">
                  <input type="checkbox" checked={autoStart} onChange={(e) => setAutoStart(e.target.checked)} />
                  <span className="text-slate-600">Auto-start next session</span>
                </label>
              </div>
            )}
          </div>
        </div>
      </div>
    </div>
  );
}
