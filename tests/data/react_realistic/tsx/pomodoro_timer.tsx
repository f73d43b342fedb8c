// Pomodoro Timer: focus/break cycle timer with a circular progress ring, adjustable durations, task list and session log
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { Play, Pause, RotateCcw, SkipForward, Coffee, Brain, Plus, Check, Settings2, X } from 'lucide-react';

type Phase = 'focus' | 'short' | 'long';

interface Durations {
  focus: number;
  short: number;
  long: number;
  roundsBeforeLong: number;
}

interface Task {
  id: number;
  title: string;
  estimate: number;
  completed: number;
  done: boolean;
}

interface LogEntry {
  id: number;
  phase: Phase;
  finishedAt: string;
  task: string | null;
}

const PHASE_META: Record<Phase, { label: string; color: string; ring: string }> = {
  focus: { label: 'Focus', color: 'bg-rose-500', ring: '#f43f5e' },
  short: { label: 'Short break', color: 'bg-teal-500', ring: '#14b8a6' },
  long: { label: 'Long break', color: 'bg-sky-500', ring: '#0ea5e9' },
};

function useInterval(callback: () => void, delay: number | null) {
  const saved = useRef(callback);
  useEffect(() => {
    saved.current = callback;
  }, [callback]);
  useEffect(() => {
    if (delay === null) return;
    const id = setInterval(() => saved.current(), delay);
    return () => clearInterval(id);
  }, [delay]);
}

function formatTime(totalSeconds: number): string {
  const m = Math.floor(totalSeconds / 60);
  const s = totalSeconds % 60;
  return `${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

export default function App() {
  const [durations, setDurations] = useState<Durations>({ focus: 25, short: 5, long: 15, roundsBeforeLong: 4 });
  const [phase, setPhase] = useState<Phase>('focus');
  const [remaining, setRemaining] = useState(25 * 60);
  const [running, setRunning] = useState(false);
  const [round, setRound] = useState(1);
  const [tasks, setTasks] = useState<Task[]>([
    { id: 1, title: 'Draft quarterly report', estimate: 3, completed: 1, done: false },
    { id: 2, title: 'Review pull requests', estimate: 2, completed: 0, done: false },
  ]);
  const [activeTaskId, setActiveTaskId] = useState<number | null>(1);
  const [log, setLog] = useState<LogEntry[]>([]);
  const [newTask, setNewTask] = useState('');
  const [newEstimate, setNewEstimate] = useState(1);
  const [taskError, setTaskError] = useState('');
  const [showSettings, setShowSettings] = useState(false);

  const total = durations[phase] * 60;
  const progress = 1 - remaining / total;
  const activeTask = tasks.find((t) => t.id === activeTaskId) ?? null;

  const advance = useCallback(() => {
    setLog((l) => [{ id: Date.now(), phase, finishedAt: new Date().toLocaleTimeString(), task: phase === 'focus' ? activeTask?.title ?? null : null }, ...l]);
    let next: Phase;
    if (phase === 'focus') {
      if (activeTaskId !== null) {
        setTasks((ts) => ts.map((t) => (t.id === activeTaskId ? { ...t, completed: t.completed + 1 } : t)));
      }
      next = round % durations.roundsBeforeLong === 0 ? 'long' : 'short';
    } else {
      next = 'focus';
      if (phase === 'long') setRound(1);
      else setRound((r) => r + 1);
    }
    setPhase(next);
    setRemaining(durations[next] * 60);
  }, [phase, activeTask, activeTaskId, round, durations]);

  useInterval(
    () => {
      setRemaining((r) => {
        if (r <= 1) {
          setRunning(false);
          return 0;
        }
        return r - 1;
      });
    },
    running ? 1000 : null,
  );

  useEffect(() => {
    if (remaining === 0) advance();
  }, [remaining, advance]);

  useEffect(() => {
    document.title = `${formatTime(remaining)} · ${PHASE_META[phase].label}`;
  }, [remaining, phase]);

  const switchPhase = (p: Phase) => {
    setRunning(false);
    setPhase(p);
    setRemaining(durations[p] * 60);
  };

  const reset = () => {
    setRunning(false);
    setRemaining(durations[phase] * 60);
  };

  const addTask = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const title = newTask.trim();
    if (!title) {
      setTaskError('Give the task a name');
      return;
    }
    if (tasks.some((t) => t.title.toLowerCase() === title.toLowerCase())) {
      setTaskError('That task already exists');
      return;
    }
    const task: Task = { id: Date.now(), title, estimate: newEstimate, completed: 0, done: false };
    setTasks((ts) => [...ts, task]);
    setActiveTaskId((id) => id ?? task.id);
    setNewTask('');
    setNewEstimate(1);
    setTaskError('');
  };

  const updateDuration = (key: keyof Durations, value: number) => {
    const clamped = Math.max(1, Math.min(key === 'roundsBeforeLong' ? 8 : 90, value || 1));
    setDurations((d) => ({ ...d, [key]: clamped }));
    if (key === phase && !running) setRemaining(clamped * 60);
  };

  const stats = useMemo(() => {
    const focusCount = log.filter((l) => l.phase === 'focus').length;
    const estimated = tasks.reduce((s, t) => s + t.estimate, 0);
    const completed = tasks.reduce((s, t) => s + Math.min(t.completed, t.estimate), 0);
    return { focusCount, focusMinutes: focusCount * durations.focus, estimated, completed };
  }, [log, tasks, durations.focus]);

  const radius = 120;
  const circumference = 2 * Math.PI * radius;

  return (
    <div className={`min-h-screen transition-colors duration-700 ${phase === 'focus' ? 'bg-rose-50' : phase === 'short' ? 'bg-teal-50' : 'bg-sky-50'}`}>
      <div className="mx-auto grid max-w-5xl grid-cols-1 gap-6 p-8 md:grid-cols-5">
        <main className="rounded-3xl bg-white p-8 shadow-lg md:col-span-3">
          <div className="flex items-center justify-between">
            <div className="flex gap-2">
              {(Object.keys(PHASE_META) as Phase[]).map((p) => (
                <button
                  key={p}
                  onClick={() => switchPhase(p)}
                  className={`rounded-full px-4 py-1.5 text-sm font-medium ${phase === p ? `${PHASE_META[p].color} text-white` : 'bg-gray-100 text-gray-600 hover:bg-gray-200'}`}
                >
                  {PHASE_META[p].label}
                </button>
              ))}
            </div>
            <button onClick={() => setShowSettings((s) => !s)} className="rounded-full p-2 text-gray-500 hover:bg-gray-100" aria-label="Settings">
              {showSettings ? <X size={18} /> : <Settings2 size={18} />}
            </button>
          </div>

          {showSettings && (
            <div className="mt-4 grid grid-cols-4 gap-3 rounded-2xl bg-gray-50 p-4 text-sm">
              {(
                [
                  ['focus', 'Focus (min)'],
                  ['short', 'Short (min)'],
                  ['long', 'Long (min)'],
                  ['roundsBeforeLong', 'Rounds'],
                ] as [keyof Durations, string][]
              ).map(([key, label]) => (
                <label key={key} className="flex flex-col gap-1">
                  <span className="text-xs text-gray-500">{label}</span>
                  <input
                    type="number"
                    min={1}
                    value={durations[key]}
                    onChange={(e) => updateDuration(key, Number(e.target.value))}
                    className="rounded-lg border border-gray-200 px-2 py-1"
                  />
                </label>
              ))}
            </div>
          )}

          <div className="relative mx-auto mt-8 flex h-72 w-72 items-center justify-center">
            <svg className="absolute inset-0 -rotate-90" viewBox="0 0 280 280">
              <circle cx="140" cy="140" r={radius} fill="none" stroke="#f3f4f6" strokeWidth="14" />
              <circle
                cx="140"
                cy="140"
                r={radius}
                fill="none"
                stroke={PHASE_META[phase].ring}
                strokeWidth="14"
                strokeLinecap="round"
                strokeDasharray={circumference}
                strokeDashoffset={circumference * (1 - progress)}
                className="transition-all duration-1000 ease-linear"
              />
            </svg>
            <div className="text-center">
              <div className="font-mono text-6xl font-bold text-gray-900">{formatTime(remaining)}</div>
              <div className="mt-2 flex items-center justify-center gap-1 text-sm text-gray-500">
                {phase === 'focus' ? <Brain size={14} /> : <Coffee size={14} />}
                Round {round} of {durations.roundsBeforeLong}
              </div>
            </div>
          </div>

          <div className="mt-8 flex items-center justify-center gap-4">
            <button onClick={reset} className="rounded-full bg-gray-100 p-3 text-gray-600 hover:bg-gray-200" aria-label="Reset">
              <RotateCcw size={20} />
            </button>
            <button
              onClick={() => setRunning((r) => !r)}
              className={`flex items-center gap-2 rounded-full px-10 py-4 text-lg font-semibold text-white shadow-md ${PHASE_META[phase].color}`}
            >
              {running ? <Pause size={22} /> : <Play size={22} />}
              {running ? 'Pause' : 'Start'}
            </button>
            <button onClick={advance} className="rounded-full bg-gray-100 p-3 text-gray-600 hover:bg-gray-200" aria-label="Skip">
              <SkipForward size={20} />
            </button>
          </div>
          <p className="mt-6 text-center text-sm text-gray-500">{activeTask ? `Working on: ${activeTask.title}` : 'Pick a task to track your focus sessions'}</p>
        </main>

        <aside className="space-y-6 md:col-span-2">
          <section className="rounded-3xl bg-white p-6 shadow-lg">
            <h2 className="mb-3 font-semibold text-gray-900">Tasks</h2>
            <ul className="space-y-2">
              {tasks.map((t) => (
                <li
                  key={t.id}
                  onClick={() => setActiveTaskId(t.id)}
                  className={`flex cursor-pointer items-center gap-3 rounded-xl border p-3 ${activeTaskId === t.id ? 'border-rose-300 bg-rose-50' : 'border-gray-100 hover:bg-gray-50'}`}
                >
                  <button
                    onClick={(e) => {
                      e.stopPropagation();
                      setTasks((ts) => ts.map((x) => (x.id === t.id ? { ...x, done: !x.done } : x)));
                    }}
                    className={`flex h-5 w-5 items-center justify-center rounded-full border ${t.done ? 'border-green-500 bg-green-500 text-white' : 'border-gray-300'}`}
                    aria-label="Toggle done"
                  >
                    {t.done && <Check size={12} />}
                  </button>
                  <span className={`flex-1 text-sm ${t.done ? 'text-gray-400 line-through' : 'text-gray-800'}`}>{t.title}</span>
                  <span className="text-xs text-gray-400">
                    {t.completed}/{t.estimate}
                  </span>
                </li>
              ))}
            </ul>
            <form onSubmit={addTask} className="mt-3 flex gap-2">
              <input
                value={newTask}
                onChange={(e) => {
                  setNewTask(e.target.value);
                  setTaskError('');
                }}
                placeholder="What are you working on?"
                className="flex-1 rounded-lg border border-gray-200 px-3 py-2 text-sm"
              />
              <input
                type="number"
                min={1}
                max={12}
                value={newEstimate}
                onChange={(e) => setNewEstimate(Math.max(1, Number(e.target.value) || 1))}
                className="w-14 rounded-lg border border-gray-200 px-2 py-2 text-sm"
                aria-label="Estimated pomodoros"
              />
              <button type="submit" className="rounded-lg bg-gray-900 p-2 text-white" aria-label="Add task">
                <Plus size={18} />
              </button>
            </form>
            {taskError && <p className="mt-1 text-xs text-rose-600">{taskError}</p>}
          </section>

          <section className="rounded-3xl bg-white p-6 shadow-lg">
            <h2 className="mb-3 font-semibold text-gray-900">Today</h2>
            <div className="grid grid-cols-3 gap-2 text-center">
              <div className="rounded-xl bg-gray-50 p-3">
                <div className="text-xl font-bold">{stats.focusCount}</div>
                <div className="text-xs text-gray-500">sessions</div>
              </div>
              <div className="rounded-xl bg-gray-50 p-3">
                <div className="text-xl font-bold">{stats.focusMinutes}</div>
                <div className="text-xs text-gray-500">minutes</div>
              </div>
              <div className="rounded-xl bg-gray-50 p-3">
                <div className="text-xl font-bold">
                  {stats.completed}/{stats.estimated}
                </div>
                <div className="text-xs text-gray-500">estimate</div>
              </div>
            </div>
            <ul className="mt-4 max-h-40 space-y-1 overflow-y-auto text-xs text-gray-500">
              {log.length === 0 && <li>No sessions finished yet.</li>}
              {log.map((l) => (
                <li key={l.id} className="flex justify-between">
                  <span>
                    {PHASE_META[l.phase].label}
                    {l.task ? ` · ${l.task}` : ''}
                  </span>
                  <span>{l.finishedAt}</span>
                </li>
              ))}
            </ul>
          </section>
        </aside>
      </div>
    </div>
  );
}
