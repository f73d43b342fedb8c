// Project Hub: multi-view project management app with dashboard charts, projects, task board/table, team workload, timesheets with a live timer, reports, settings and a command palette
import { createContext, useCallback, useContext, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import type { ChangeEvent, Dispatch, FormEvent, KeyboardEvent as ReactKeyboardEvent, ReactNode } from 'react';
import {
  BarChart,
  Bar,
  LineChart,
  Line,
  PieChart,
  Pie,
  Cell,
  AreaChart,
  Area,
  XAxis,
  YAxis,
  Tooltip,
  Legend,
  CartesianGrid,
  ResponsiveContainer,
} from 'recharts';
import {
  LayoutDashboard,
  FolderKanban,
  ListChecks,
  Users,
  Clock,
  FileBarChart,
  Settings,
  Search,
  Bell,
  Plus,
  Play,
  Square,
  Trash2,
  X,
  ChevronRight,
  CircleCheck,
  CircleAlert,
  Calendar,
  Command,
} from 'lucide-react';

/* ------------------------------------------------------------------ */
/* Types                                                               */
/* ------------------------------------------------------------------ */

type View = 'dashboard' | 'projects' | 'tasks' | 'team' | 'time' | 'reports' | 'settings';
type TaskStatus = 'todo' | 'in_progress' | 'blocked' | 'done';
type Priority = 'low' | 'medium' | 'high';
type ProjectHealth = 'on_track' | 'at_risk' | 'off_track';

interface Member {
  id: string;
  name: string;
  role: string;
  capacity: number; // hours per week
  color: string;
}

interface Project {
  id: string;
  name: string;
  client: string;
  ownerId: string;
  budgetHours: number;
  due: string;
  health: ProjectHealth;
  archived: boolean;
}

interface Task {
  id: string;
  projectId: string;
  title: string;
  assigneeId: string | null;
  status: TaskStatus;
  priority: Priority;
  estimate: number; // hours
  due: string;
}

interface TimeEntry {
  id: string;
  taskId: string;
  memberId: string;
  date: string;
  minutes: number;
  note: string;
}

interface Notification {
  id: string;
  text: string;
  read: boolean;
  at: number;
}

interface Preferences {
  weekStartsMonday: boolean;
  hoursPerDay: number;
  showArchived: boolean;
  density: 'comfortable' | 'compact';
}

interface AppState {
  members: Member[];
  projects: Project[];
  tasks: Task[];
  entries: TimeEntry[];
  notifications: Notification[];
  prefs: Preferences;
  currentUserId: string;
}

type AppAction =
  | { type: 'addProject'; project: Project }
  | { type: 'updateProject'; id: string; patch: Partial<Project> }
  | { type: 'addTask'; task: Task }
  | { type: 'updateTask'; id: string; patch: Partial<Task> }
  | { type: 'deleteTask'; id: string }
  | { type: 'addEntry'; entry: TimeEntry }
  | { type: 'deleteEntry'; id: string }
  | { type: 'notify'; text: string }
  | { type: 'readAll' }
  | { type: 'setPrefs'; patch: Partial<Preferences> };

/* ------------------------------------------------------------------ */
/* Seed data                                                           */
/* ------------------------------------------------------------------ */

const MEMBERS: Member[] = [
  { id: 'm1', name: 'Hana Sato', role: 'Product lead', capacity: 32, color: '#6366f1' },
  { id: 'm2', name: 'Diego Alvarez', role: 'Frontend engineer', capacity: 40, color: '#0ea5e9' },
  { id: 'm3', name: 'Grace Obi', role: 'Backend engineer', capacity: 40, color: '#10b981' },
  { id: 'm4', name: 'Tom Lindqvist', role: 'Designer', capacity: 30, color: '#f59e0b' },
  { id: 'm5', name: 'Meera Iyer', role: 'QA engineer', capacity: 36, color: '#ec4899' },
];

const PROJECTS: Project[] = [
  { id: 'p1', name: 'Checkout revamp', client: 'Northwind', ownerId: 'm1', budgetHours: 320, due: '2024-08-30', health: 'on_track', archived: false },
  { id: 'p2', name: 'Mobile app v3', client: 'Contoso', ownerId: 'm2', budgetHours: 540, due: '2024-10-15', health: 'at_risk', archived: false },
  { id: 'p3', name: 'Data warehouse', client: 'Internal', ownerId: 'm3', budgetHours: 260, due: '2024-07-31', health: 'off_track', archived: false },
  { id: 'p4', name: 'Brand refresh', client: 'Fabrikam', ownerId: 'm4', budgetHours: 120, due: '2024-06-28', health: 'on_track', archived: false },
  { id: 'p5', name: 'Legacy CRM sunset', client: 'Internal', ownerId: 'm1', budgetHours: 80, due: '2024-03-01', health: 'on_track', archived: true },
];

const TASK_TITLES: [string, string, Priority, number][] = [
  ['p1', 'Audit current checkout funnel', 'medium', 8],
  ['p1', 'Design one-page checkout', 'high', 24],
  ['p1', 'Implement address autocomplete', 'medium', 16],
  ['p1', 'Payment provider integration', 'high', 32],
  ['p1', 'A/B test plan', 'low', 6],
  ['p2', 'Offline sync prototype', 'high', 40],
  ['p2', 'Push notification service', 'medium', 20],
  ['p2', 'Accessibility pass', 'medium', 18],
  ['p2', 'Release pipeline for app stores', 'high', 14],
  ['p2', 'Onboarding screens', 'low', 12],
  ['p3', 'Define event schema', 'high', 10],
  ['p3', 'Nightly ETL jobs', 'high', 36],
  ['p3', 'Dashboard for finance', 'medium', 22],
  ['p3', 'Backfill 2023 data', 'medium', 16],
  ['p4', 'Moodboards', 'low', 6],
  ['p4', 'Logo exploration', 'medium', 18],
  ['p4', 'Type and colour system', 'medium', 14],
];

const STATUS_CYCLE: TaskStatus[] = ['done', 'in_progress', 'todo', 'blocked', 'done', 'todo'];

function isoOffset(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return d.toISOString().slice(0, 10);
}

function seedTasks(): Task[] {
  return TASK_TITLES.map(([projectId, title, priority, estimate], i) => ({
    id: `t${i + 1}`,
    projectId,
    title,
    priority,
    estimate,
    status: STATUS_CYCLE[i % STATUS_CYCLE.length],
    assigneeId: i % 7 === 6 ? null : MEMBERS[i % MEMBERS.length].id,
    due: isoOffset((i % 9) * 4 - 6),
  }));
}

function seedEntries(tasks: Task[]): TimeEntry[] {
  const entries: TimeEntry[] = [];
  let n = 0;
  for (let day = 27; day >= 0; day--) {
    tasks.forEach((t, i) => {
      if (!t.assigneeId || (i + day) % 5 !== 0) return;
      entries.push({ id: `e${n++}`, taskId: t.id, memberId: t.assigneeId, date: isoOffset(-day), minutes: 30 + ((i * 37 + day * 11) % 6) * 30, note: '' });
    });
  }
  return entries;
}

function initialState(): AppState {
  const tasks = seedTasks();
  return {
    members: MEMBERS,
    projects: PROJECTS,
    tasks,
    entries: seedEntries(tasks),
    notifications: [
      { id: 'n1', text: 'Grace moved "Nightly ETL jobs" to Blocked', read: false, at: Date.now() - 20 * 60_000 },
      { id: 'n2', text: 'Mobile app v3 is 80% through its budget', read: false, at: Date.now() - 3 * 3600_000 },
      { id: 'n3', text: 'Tom commented on "Logo exploration"', read: true, at: Date.now() - 26 * 3600_000 },
    ],
    prefs: { weekStartsMonday: true, hoursPerDay: 8, showArchived: false, density: 'comfortable' },
    currentUserId: 'm1',
  };
}

/* ------------------------------------------------------------------ */
/* State                                                               */
/* ------------------------------------------------------------------ */

let idCounter = 1000;
const newId = (prefix: string) => `${prefix}${idCounter++}`;

function reducer(state: AppState, action: AppAction): AppState {
  switch (action.type) {
    case 'addProject':
      return { ...state, projects: [...state.projects, action.project] };
    case 'updateProject':
      return { ...state, projects: state.projects.map((p) => (p.id === action.id ? { ...p, ...action.patch } : p)) };
    case 'addTask':
      return { ...state, tasks: [...state.tasks, action.task] };
    case 'updateTask':
      return { ...state, tasks: state.tasks.map((t) => (t.id === action.id ? { ...t, ...action.patch } : t)) };
    case 'deleteTask':
      return { ...state, tasks: state.tasks.filter((t) => t.id !== action.id), entries: state.entries.filter((e) => e.taskId !== action.id) };
    case 'addEntry':
      return { ...state, entries: [...state.entries, action.entry] };
    case 'deleteEntry':
      return { ...state, entries: state.entries.filter((e) => e.id !== action.id) };
    case 'notify':
      return { ...state, notifications: [{ id: newId('n'), text: action.text, read: false, at: Date.now() }, ...state.notifications].slice(0, 20) };
    case 'readAll':
      return { ...state, notifications: state.notifications.map((n) => ({ ...n, read: true })) };
    case 'setPrefs':
      return { ...state, prefs: { ...state.prefs, ...action.patch } };
  }
}

interface Store {
  state: AppState;
  dispatch: Dispatch<AppAction>;
  navigate: (view: View, focusId?: string) => void;
}

const StoreContext = createContext<Store | null>(null);

function useStore(): Store {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useStore must be used inside the provider');
  return store;
}

function useMemberLookup() {
  const { state } = useStore();
  return useMemo(() => new Map(state.members.map((m) => [m.id, m])), [state.members]);
}

function useProjectStats() {
  const { state } = useStore();
  return useMemo(() => {
    return state.projects.map((p) => {
      const tasks = state.tasks.filter((t) => t.projectId === p.id);
      const taskIds = new Set(tasks.map((t) => t.id));
      const minutes = state.entries.filter((e) => taskIds.has(e.taskId)).reduce((s, e) => s + e.minutes, 0);
      const done = tasks.filter((t) => t.status === 'done').length;
      return {
        project: p,
        tasks: tasks.length,
        done,
        progress: tasks.length ? done / tasks.length : 0,
        hoursLogged: minutes / 60,
        budgetUsed: p.budgetHours ? minutes / 60 / p.budgetHours : 0,
        blocked: tasks.filter((t) => t.status === 'blocked').length,
      };
    });
  }, [state.projects, state.tasks, state.entries]);
}

function useDebouncedValue<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

function useStopwatch() {
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (startedAt === null) return;
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, [startedAt]);
  const elapsed = startedAt === null ? 0 : Math.max(0, Math.floor((now - startedAt) / 1000));
  const start = useCallback(() => {
    setNow(Date.now());
    setStartedAt(Date.now());
  }, []);
  const stop = useCallback(() => {
    const seconds = startedAt === null ? 0 : Math.floor((Date.now() - startedAt) / 1000);
    setStartedAt(null);
    return seconds;
  }, [startedAt]);
  return { running: startedAt !== null, elapsed, start, stop };
}

/* ------------------------------------------------------------------ */
/* Helpers and small components                                        */
/* ------------------------------------------------------------------ */

const STATUS_LABEL: Record<TaskStatus, string> = { todo: 'To do', in_progress: 'In progress', blocked: 'Blocked', done: 'Done' };
const STATUS_STYLE: Record<TaskStatus, string> = {
  todo: 'bg-slate-100 text-slate-700',
  in_progress: 'bg-blue-100 text-blue-700',
  blocked: 'bg-rose-100 text-rose-700',
  done: 'bg-emerald-100 text-emerald-700',
};
const STATUS_COLOR: Record<TaskStatus, string> = { todo: '#94a3b8', in_progress: '#3b82f6', blocked: '#f43f5e', done: '#10b981' };
const PRIORITY_STYLE: Record<Priority, string> = { low: 'text-slate-400', medium: 'text-amber-500', high: 'text-rose-500' };
const HEALTH_STYLE: Record<ProjectHealth, { label: string; cls: string }> = {
  on_track: { label: 'On track', cls: 'bg-emerald-100 text-emerald-700' },
  at_risk: { label: 'At risk', cls: 'bg-amber-100 text-amber-700' },
  off_track: { label: 'Off track', cls: 'bg-rose-100 text-rose-700' },
};

const formatHours = (h: number) => `${h.toFixed(h < 10 ? 1 : 0)}h`;
const formatClock = (s: number) => `${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
const todayIso = () => new Date().toISOString().slice(0, 10);

function Avatar({ member, size = 28 }: { member: Member | undefined; size?: number }) {
  if (!member) {
    return (
      <span className="inline-flex items-center justify-center rounded-full border border-dashed border-slate-300 text-[10px] text-slate-400" style={{ width: size, height: size }}>
        ?
      </span>
    );
  }
  return (
    <span title={member.name} className="inline-flex items-center justify-center rounded-full text-[11px] font-semibold text-white" style={{ width: size, height: size, backgroundColor: member.color }}>
      {member.name
        .split(' ')
        .map((p) => p[0])
        .join('')}
    </span>
  );
}

function Card({ title, action, children, className = '' }: { title?: string; action?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <section className={`rounded-xl border border-slate-200 bg-white p-5 shadow-sm ${className}`}>
      {(title || action) && (
        <div className="mb-4 flex items-center justify-between">
          {title && <h2 className="font-semibold text-slate-900">{title}</h2>}
          {action}
        </div>
      )}
      {children}
    </section>
  );
}

function ProgressBar({ value, tone = 'bg-indigo-500' }: { value: number; tone?: string }) {
  const pct = Math.max(0, Math.min(1, value)) * 100;
  return (
    <div className="h-2 w-full overflow-hidden rounded-full bg-slate-100">
      <div className={`h-full rounded-full ${value > 1 ? 'bg-rose-500' : tone}`} style={{ width: `${pct}%` }} />
    </div>
  );
}

function Modal({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="fixed inset-0 z-40 flex items-center justify-center bg-slate-900/40 p-4" onClick={onClose}>
      <div className="w-full max-w-lg rounded-2xl bg-white p-6 shadow-2xl" onClick={(e) => e.stopPropagation()}>
        <div className="mb-4 flex items-center justify-between">
          <h2 className="text-lg font-semibold">{title}</h2>
          <button onClick={onClose} className="rounded p-1 hover:bg-slate-100" aria-label="Close">
            <X size={18} />
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}

/* ------------------------------------------------------------------ */
/* Dashboard                                                           */
/* ------------------------------------------------------------------ */

function DashboardView() {
  const { state, navigate } = useStore();
  const stats = useProjectStats();
  const members = useMemberLookup();

  const statusData = useMemo(
    () => (Object.keys(STATUS_LABEL) as TaskStatus[]).map((s) => ({ name: STATUS_LABEL[s], status: s, value: state.tasks.filter((t) => t.status === s).length })).filter((d) => d.value > 0),
    [state.tasks],
  );

  const last14 = useMemo(() => {
    return Array.from({ length: 14 }, (_, i) => {
      const date = isoOffset(i - 13);
      const minutes = state.entries.filter((e) => e.date === date).reduce((s, e) => s + e.minutes, 0);
      return { date: date.slice(5), hours: Math.round((minutes / 60) * 10) / 10 };
    });
  }, [state.entries]);

  const active = stats.filter((s) => !s.project.archived);
  const overdue = state.tasks.filter((t) => t.status !== 'done' && t.due < todayIso());
  const myTasks = state.tasks.filter((t) => t.assigneeId === state.currentUserId && t.status !== 'done');
  const weekHours = last14.slice(-7).reduce((s, d) => s + d.hours, 0);

  return (
    <div className="space-y-6">
      <div className="grid grid-cols-4 gap-4">
        {[
          { label: 'Active projects', value: active.length, sub: `${active.filter((s) => s.project.health !== 'on_track').length} need attention` },
          { label: 'Open tasks', value: state.tasks.filter((t) => t.status !== 'done').length, sub: `${state.tasks.filter((t) => t.status === 'blocked').length} blocked` },
          { label: 'Overdue', value: overdue.length, sub: overdue.length ? 'Review due dates' : 'All on schedule' },
          { label: 'Hours this week', value: formatHours(weekHours), sub: `${state.members.length} people logging` },
        ].map((k) => (
          <Card key={k.label}>
            <div className="text-sm text-slate-500">{k.label}</div>
            <div className="mt-1 text-3xl font-bold text-slate-900">{k.value}</div>
            <div className="mt-1 text-xs text-slate-400">{k.sub}</div>
          </Card>
        ))}
      </div>

      <div className="grid grid-cols-3 gap-6">
        <Card title="Hours logged, last 14 days" className="col-span-2">
          <div className="h-64">
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={last14}>
                <CartesianGrid strokeDasharray="3 3" vertical={false} />
                <XAxis dataKey="date" tick={{ fontSize: 11 }} />
                <YAxis tick={{ fontSize: 11 }} width={32} />
                <Tooltip />
                <Bar dataKey="hours" fill="#6366f1" radius={[4, 4, 0, 0]} />
              </BarChart>
            </ResponsiveContainer>
          </div>
        </Card>
        <Card title="Tasks by status">
          <div className="h-64">
            <ResponsiveContainer width="100%" height="100%">
              <PieChart>
                <Pie data={statusData} dataKey="value" nameKey="name" innerRadius={50} outerRadius={80} paddingAngle={2}>
                  {statusData.map((d) => (
                    <Cell key={d.status} fill={STATUS_COLOR[d.status]} />
                  ))}
                </Pie>
                <Tooltip />
                <Legend iconSize={8} wrapperStyle={{ fontSize: 12 }} />
              </PieChart>
            </ResponsiveContainer>
          </div>
        </Card>
      </div>

      <div className="grid grid-cols-2 gap-6">
        <Card title="Project health" action={<button onClick={() => navigate('projects')} className="text-sm text-indigo-600 hover:underline">All projects</button>}>
          <ul className="space-y-4">
            {active.map((s) => (
              <li key={s.project.id}>
                <div className="mb-1 flex items-center justify-between text-sm">
                  <button onClick={() => navigate('projects', s.project.id)} className="font-medium hover:text-indigo-600">
                    {s.project.name}
                  </button>
                  <span className={`rounded-full px-2 py-0.5 text-xs ${HEALTH_STYLE[s.project.health].cls}`}>{HEALTH_STYLE[s.project.health].label}</span>
                </div>
                <ProgressBar value={s.progress} />
                <div className="mt-1 flex justify-between text-xs text-slate-400">
                  <span>
                    {s.done}/{s.tasks} tasks
                  </span>
                  <span>
                    {formatHours(s.hoursLogged)} of {s.project.budgetHours}h budget
                  </span>
                </div>
              </li>
            ))}
          </ul>
        </Card>
        <Card title="My open tasks" action={<button onClick={() => navigate('tasks')} className="text-sm text-indigo-600 hover:underline">Task list</button>}>
          {myTasks.length === 0 ? (
            <p className="text-sm text-slate-400">Nothing assigned to you. Nice.</p>
          ) : (
            <ul className="divide-y divide-slate-100">
              {myTasks.map((t) => (
                <li key={t.id} className="flex items-center gap-3 py-2 text-sm">
                  <span className={`rounded px-2 py-0.5 text-xs ${STATUS_STYLE[t.status]}`}>{STATUS_LABEL[t.status]}</span>
                  <span className="flex-1 truncate">{t.title}</span>
                  <span className={`text-xs ${t.due < todayIso() ? 'font-semibold text-rose-600' : 'text-slate-400'}`}>{t.due}</span>
                </li>
              ))}
            </ul>
          )}
          <div className="mt-4 flex -space-x-2">
            {state.members.map((m) => (
              <Avatar key={m.id} member={members.get(m.id)} />
            ))}
          </div>
        </Card>
      </div>
    </div>
  );
}

/* ------------------------------------------------------------------ */
/* Projects                                                            */
/* ------------------------------------------------------------------ */

interface ProjectDraft {
  name: string;
  client: string;
  ownerId: string;
  budgetHours: string;
  due: string;
}

function ProjectsView({ focusId }: { focusId?: string }) {
  const { state, dispatch } = useStore();
  const stats = useProjectStats();
  const members = useMemberLookup();
  const [selectedId, setSelectedId] = useState<string | null>(focusId ?? null);
  const [creating, setCreating] = useState(false);
  const [draft, setDraft] = useState<ProjectDraft>({ name: '', client: '', ownerId: state.currentUserId, budgetHours: '100', due: isoOffset(60) });
  const [errors, setErrors] = useState<Partial<Record<keyof ProjectDraft, string>>>({});

  const list = stats.filter((s) => state.prefs.showArchived || !s.project.archived);
  const selected = stats.find((s) => s.project.id === selectedId);
  const selectedTasks = state.tasks.filter((t) => t.projectId === selectedId);

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const found: Partial<Record<keyof ProjectDraft, string>> = {};
    if (draft.name.trim().length < 3) found.name = 'At least 3 characters';
    if (state.projects.some((p) => p.name.toLowerCase() === draft.name.trim().toLowerCase())) found.name = 'A project with this name exists';
    if (!draft.client.trim()) found.client = 'Client is required';
    const budget = Number(draft.budgetHours);
    if (!Number.isFinite(budget) || budget <= 0 || budget > 10000) found.budgetHours = 'Budget must be 1–10000 hours';
    if (!draft.due || draft.due < todayIso()) found.due = 'Due date must be in the future';
    setErrors(found);
    if (Object.keys(found).length) return;
    const project: Project = { id: newId('p'), name: draft.name.trim(), client: draft.client.trim(), ownerId: draft.ownerId, budgetHours: budget, due: draft.due, health: 'on_track', archived: false };
    dispatch({ type: 'addProject', project });
    dispatch({ type: 'notify', text: `Project "${project.name}" created` });
    setCreating(false);
    setSelectedId(project.id);
    setDraft({ name: '', client: '', ownerId: state.currentUserId, budgetHours: '100', due: isoOffset(60) });
  };

  return (
    <div className="grid grid-cols-5 gap-6">
      <div className="col-span-3 space-y-3">
        <div className="flex items-center justify-between">
          <label className="flex items-center gap-2 text-sm text-slate-600">
            <input type="checkbox" checked={state.prefs.showArchived} onChange={(e) => dispatch({ type: 'setPrefs', patch: { showArchived: e.target.checked } })} />
            Show archived
          </label>
          <button onClick={() => setCreating(true)} className="flex items-center gap-1 rounded-lg bg-indigo-600 px-3 py-2 text-sm font-medium text-white hover:bg-indigo-700">
            <Plus size={16} /> New project
          </button>
        </div>
        {list.map((s) => (
          <button
            key={s.project.id}
            onClick={() => setSelectedId(s.project.id)}
            className={`w-full rounded-xl border bg-white p-4 text-left shadow-sm transition ${selectedId === s.project.id ? 'border-indigo-400 ring-2 ring-indigo-100' : 'border-slate-200 hover:border-slate-300'} ${
              s.project.archived ? 'opacity-60' : ''
            }`}
          >
            <div className="flex items-center justify-between">
              <div>
                <div className="font-semibold text-slate-900">{s.project.name}</div>
                <div className="text-xs text-slate-500">
                  {s.project.client} · due {s.project.due}
                </div>
              </div>
              <div className="flex items-center gap-3">
                {s.blocked > 0 && (
                  <span className="flex items-center gap-1 text-xs text-rose-600">
                    <CircleAlert size={14} /> {s.blocked}
                  </span>
                )}
                <span className={`rounded-full px-2 py-0.5 text-xs ${HEALTH_STYLE[s.project.health].cls}`}>{HEALTH_STYLE[s.project.health].label}</span>
                <Avatar member={members.get(s.project.ownerId)} />
              </div>
            </div>
            <div className="mt-3 grid grid-cols-2 gap-4 text-xs text-slate-500">
              <div>
                <div className="mb-1">Progress {Math.round(s.progress * 100)}%</div>
                <ProgressBar value={s.progress} />
              </div>
              <div>
                <div className="mb-1">Budget {Math.round(s.budgetUsed * 100)}%</div>
                <ProgressBar value={s.budgetUsed} tone="bg-amber-400" />
              </div>
            </div>
          </button>
        ))}
      </div>

      <div className="col-span-2">
        {selected ? (
          <Card title={selected.project.name} action={<span className="text-xs text-slate-400">{selected.project.client}</span>}>
            <dl className="mb-4 grid grid-cols-2 gap-3 text-sm">
              <div>
                <dt className="text-slate-500">Owner</dt>
                <dd className="font-medium">{members.get(selected.project.ownerId)?.name ?? 'Unknown'}</dd>
              </div>
              <div>
                <dt className="text-slate-500">Due</dt>
                <dd className="font-medium">{selected.project.due}</dd>
              </div>
              <div>
                <dt className="text-slate-500">Logged</dt>
                <dd className="font-medium">
                  {formatHours(selected.hoursLogged)} / {selected.project.budgetHours}h
                </dd>
              </div>
              <div>
                <dt className="text-slate-500">Health</dt>
                <dd>
                  <select
                    value={selected.project.health}
                    onChange={(e) => dispatch({ type: 'updateProject', id: selected.project.id, patch: { health: e.target.value as ProjectHealth } })}
                    className="rounded border border-slate-200 px-1 py-0.5 text-sm"
                  >
                    {(Object.keys(HEALTH_STYLE) as ProjectHealth[]).map((h) => (
                      <option key={h} value={h}>
                        {HEALTH_STYLE[h].label}
                      </option>
                    ))}
                  </select>
                </dd>
              </div>
            </dl>
            <h3 className="mb-2 text-sm font-semibold text-slate-700">Tasks ({selectedTasks.length})</h3>
            <ul className="max-h-72 space-y-1 overflow-y-auto">
              {selectedTasks.map((t) => (
                <li key={t.id} className="flex items-center gap-2 rounded-lg px-2 py-1.5 text-sm hover:bg-slate-50">
                  {t.status === 'done' ? <CircleCheck size={16} className="text-emerald-500" /> : <span className={`h-2 w-2 rounded-full`} style={{ backgroundColor: STATUS_COLOR[t.status] }} />}
                  <span className={`flex-1 truncate ${t.status === 'done' ? 'text-slate-400 line-through' : ''}`}>{t.title}</span>
                  <Avatar member={t.assigneeId ? members.get(t.assigneeId) : undefined} size={22} />
                </li>
              ))}
            </ul>
            <button
              onClick={() => {
                dispatch({ type: 'updateProject', id: selected.project.id, patch: { archived: !selected.project.archived } });
                dispatch({ type: 'notify', text: `${selected.project.name} ${selected.project.archived ? 'restored' : 'archived'}` });
              }}
              className="mt-4 text-sm text-slate-500 hover:text-slate-800"
            >
              {selected.project.archived ? 'Restore project' : 'Archive project'}
            </button>
          </Card>
        ) : (
          <Card>
            <p className="py-10 text-center text-sm text-slate-400">Select a project to see its details.</p>
          </Card>
        )}
      </div>

      {creating && (
        <Modal title="New project" onClose={() => setCreating(false)}>
          <form onSubmit={submit} className="space-y-3">
            {(
              [
                ['name', 'Project name', 'text'],
                ['client', 'Client', 'text'],
                ['budgetHours', 'Budget (hours)', 'number'],
                ['due', 'Due date', 'date'],
              ] as [keyof ProjectDraft, string, string][]
            ).map(([key, label, type]) => (
              <label key={key} className="block text-sm">
                <span className="mb-1 block font-medium text-slate-700">{label}</span>
                <input
                  type={type}
                  value={draft[key]}
                  onChange={(e: ChangeEvent<HTMLInputElement>) => setDraft((d) => ({ ...d, [key]: e.target.value }))}
                  className={`w-full rounded-lg border px-3 py-2 ${errors[key] ? 'border-rose-400' : 'border-slate-300'}`}
                />
                {errors[key] && <span className="text-xs text-rose-600">{errors[key]}</span>}
              </label>
            ))}
            <label className="block text-sm">
              <span className="mb-1 block font-medium text-slate-700">Owner</span>
              <select value={draft.ownerId} onChange={(e) => setDraft((d) => ({ ...d, ownerId: e.target.value }))} className="w-full rounded-lg border border-slate-300 px-3 py-2">
                {state.members.map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.name}
                  </option>
                ))}
              </select>
            </label>
            <div className="flex justify-end gap-2 pt-2">
              <button type="button" onClick={() => setCreating(false)} className="rounded-lg px-4 py-2 text-sm hover:bg-slate-100">
                Cancel
              </button>
              <button type="submit" className="rounded-lg bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700">
                Create project
              </button>
            </div>
          </form>
        </Modal>
      )}
    </div>
  );
}

/* ------------------------------------------------------------------ */
/* Tasks                                                               */
/* ------------------------------------------------------------------ */

type TaskSort = 'due' | 'priority' | 'status' | 'title';
const PRIORITY_RANK: Record<Priority, number> = { high: 0, medium: 1, low: 2 };
const STATUS_RANK: Record<TaskStatus, number> = { blocked: 0, in_progress: 1, todo: 2, done: 3 };

function TasksView() {
  const { state, dispatch } = useStore();
  const members = useMemberLookup();
  const [query, setQuery] = useState('');
  const debouncedQuery = useDebouncedValue(query, 200);
  const [projectFilter, setProjectFilter] = useState('all');
  const [statusFilter, setStatusFilter] = useState<TaskStatus | 'all'>('all');
  const [sort, setSort] = useState<TaskSort>('due');
  const [newTitle, setNewTitle] = useState('');
  const [newProject, setNewProject] = useState(state.projects.find((p) => !p.archived)?.id ?? '');
  const [error, setError] = useState('');

  const projectName = useMemo(() => new Map(state.projects.map((p) => [p.id, p.name])), [state.projects]);

  const rows = useMemo(() => {
    const q = debouncedQuery.trim().toLowerCase();
    const filtered = state.tasks.filter(
      (t) => (projectFilter === 'all' || t.projectId === projectFilter) && (statusFilter === 'all' || t.status === statusFilter) && (!q || t.title.toLowerCase().includes(q)),
    );
    const cmp: Record<TaskSort, (a: Task, b: Task) => number> = {
      due: (a, b) => a.due.localeCompare(b.due),
      priority: (a, b) => PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority],
      status: (a, b) => STATUS_RANK[a.status] - STATUS_RANK[b.status],
      title: (a, b) => a.title.localeCompare(b.title),
    };
    return [...filtered].sort(cmp[sort]);
  }, [state.tasks, debouncedQuery, projectFilter, statusFilter, sort]);

  const addTask = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const title = newTitle.trim();
    if (title.length < 3) {
      setError('Task title needs at least 3 characters');
      return;
    }
    if (!newProject) {
      setError('Pick a project');
      return;
    }
    dispatch({ type: 'addTask', task: { id: newId('t'), projectId: newProject, title, assigneeId: null, status: 'todo', priority: 'medium', estimate: 4, due: isoOffset(7) } });
    setNewTitle('');
    setError('');
  };

  const compact = state.prefs.density === 'compact';

  return (
    <Card>
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <label className="flex items-center gap-2 rounded-lg border border-slate-200 px-3 py-1.5">
          <Search size={14} className="text-slate-400" />
          <input value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Search tasks" className="w-48 text-sm outline-none" />
        </label>
        <select value={projectFilter} onChange={(e) => setProjectFilter(e.target.value)} className="rounded-lg border border-slate-200 px-2 py-1.5 text-sm">
          <option value="all">All projects</option>
          {state.projects.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
        <select value={statusFilter} onChange={(e) => setStatusFilter(e.target.value as TaskStatus | 'all')} className="rounded-lg border border-slate-200 px-2 py-1.5 text-sm">
          <option value="all">Any status</option>
          {(Object.keys(STATUS_LABEL) as TaskStatus[]).map((s) => (
            <option key={s} value={s}>
              {STATUS_LABEL[s]}
            </option>
          ))}
        </select>
        <select value={sort} onChange={(e) => setSort(e.target.value as TaskSort)} className="rounded-lg border border-slate-200 px-2 py-1.5 text-sm">
          <option value="due">Sort by due date</option>
          <option value="priority">Sort by priority</option>
          <option value="status">Sort by status</option>
          <option value="title">Sort by title</option>
        </select>
        <span className="ml-auto text-xs text-slate-400">{rows.length} tasks</span>
      </div>

      <form onSubmit={addTask} className="mb-4 flex gap-2">
        <input value={newTitle} onChange={(e) => setNewTitle(e.target.value)} placeholder="Quick add a task…" className="flex-1 rounded-lg border border-slate-200 px-3 py-2 text-sm" />
        <select value={newProject} onChange={(e) => setNewProject(e.target.value)} className="rounded-lg border border-slate-200 px-2 text-sm">
          {state.projects
            .filter((p) => !p.archived)
            .map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
        </select>
        <button type="submit" className="rounded-lg bg-indigo-600 px-3 text-white" aria-label="Add task">
          <Plus size={18} />
        </button>
      </form>
      {error && <p className="-mt-2 mb-3 text-xs text-rose-600">{error}</p>}

      <table className="w-full text-sm">
        <thead className="text-left text-xs uppercase text-slate-400">
          <tr>
            <th className="pb-2 font-medium">Task</th>
            <th className="pb-2 font-medium">Project</th>
            <th className="pb-2 font-medium">Assignee</th>
            <th className="pb-2 font-medium">Status</th>
            <th className="pb-2 font-medium">Priority</th>
            <th className="pb-2 font-medium">Due</th>
            <th className="pb-2 text-right font-medium">Est.</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.map((t) => (
            <tr key={t.id} className="border-t border-slate-100">
              <td className={`${compact ? 'py-1' : 'py-2.5'} pr-3 font-medium`}>{t.title}</td>
              <td className="pr-3 text-slate-500">{projectName.get(t.projectId) ?? '—'}</td>
              <td className="pr-3">
                <select
                  value={t.assigneeId ?? ''}
                  onChange={(e) => dispatch({ type: 'updateTask', id: t.id, patch: { assigneeId: e.target.value || null } })}
                  className="rounded border border-transparent bg-transparent px-1 py-0.5 hover:border-slate-200"
                >
                  <option value="">Unassigned</option>
                  {state.members.map((m) => (
                    <option key={m.id} value={m.id}>
                      {members.get(m.id)?.name}
                    </option>
                  ))}
                </select>
              </td>
              <td className="pr-3">
                <select
                  value={t.status}
                  onChange={(e) => {
                    const status = e.target.value as TaskStatus;
                    dispatch({ type: 'updateTask', id: t.id, patch: { status } });
                    if (status === 'blocked') dispatch({ type: 'notify', text: `"${t.title}" is blocked` });
                  }}
                  className={`rounded px-2 py-0.5 text-xs ${STATUS_STYLE[t.status]}`}
                >
                  {(Object.keys(STATUS_LABEL) as TaskStatus[]).map((s) => (
                    <option key={s} value={s}>
                      {STATUS_LABEL[s]}
                    </option>
                  ))}
                </select>
              </td>
              <td className={`pr-3 text-xs font-semibold uppercase ${PRIORITY_STYLE[t.priority]}`}>{t.priority}</td>
              <td className={`pr-3 text-xs ${t.status !== 'done' && t.due < todayIso() ? 'font-semibold text-rose-600' : 'text-slate-500'}`}>{t.due}</td>
              <td className="pr-3 text-right text-slate-500">{t.estimate}h</td>
              <td className="text-right">
                <button onClick={() => dispatch({ type: 'deleteTask', id: t.id })} className="text-slate-300 hover:text-rose-500" aria-label={`Delete ${t.title}`}>
                  <Trash2 size={14} />
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length === 0 && <p className="py-10 text-center text-sm text-slate-400">No tasks match these filters.</p>}
    </Card>
  );
}

/* ------------------------------------------------------------------ */
/* Team                                                                */
/* ------------------------------------------------------------------ */

function TeamView() {
  const { state } = useStore();

  const workload = useMemo(() => {
    const weekAgo = isoOffset(-6);
    return state.members.map((m) => {
      const open = state.tasks.filter((t) => t.assigneeId === m.id && t.status !== 'done');
      const logged = state.entries.filter((e) => e.memberId === m.id && e.date >= weekAgo).reduce((s, e) => s + e.minutes, 0) / 60;
      const committed = open.reduce((s, t) => s + t.estimate, 0);
      return { member: m, open: open.length, logged, committed, utilisation: logged / m.capacity };
    });
  }, [state.members, state.tasks, state.entries]);

  const chartData = workload.map((w) => ({ name: w.member.name.split(' ')[0], logged: Math.round(w.logged * 10) / 10, capacity: w.member.capacity }));

  return (
    <div className="space-y-6">
      <div className="grid grid-cols-5 gap-4">
        {workload.map((w) => (
          <Card key={w.member.id}>
            <div className="flex flex-col items-center text-center">
              <Avatar member={w.member} size={52} />
              <div className="mt-2 font-semibold">{w.member.name}</div>
              <div className="text-xs text-slate-500">{w.member.role}</div>
              <div className="mt-3 w-full">
                <ProgressBar value={w.utilisation} tone="bg-emerald-500" />
                <div className="mt-1 text-xs text-slate-500">
                  {formatHours(w.logged)} of {w.member.capacity}h this week
                </div>
              </div>
              <div className="mt-2 text-xs text-slate-400">
                {w.open} open tasks · {w.committed}h estimated
              </div>
            </div>
          </Card>
        ))}
      </div>
      <Card title="Logged vs capacity (last 7 days)">
        <div className="h-72">
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={chartData}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="name" tick={{ fontSize: 12 }} />
              <YAxis tick={{ fontSize: 11 }} width={32} />
              <Tooltip />
              <Legend />
              <Bar dataKey="capacity" name="Capacity" fill="#e2e8f0" radius={[4, 4, 0, 0]} />
              <Bar dataKey="logged" name="Logged" fill="#10b981" radius={[4, 4, 0, 0]} />
            </BarChart>
          </ResponsiveContainer>
        </div>
      </Card>
    </div>
  );
}

/* ------------------------------------------------------------------ */
/* Timesheet                                                           */
/* ------------------------------------------------------------------ */

function TimeView() {
  const { state, dispatch } = useStore();
  const stopwatch = useStopwatch();
  const openTasks = state.tasks.filter((t) => t.status !== 'done');
  const [taskId, setTaskId] = useState(openTasks[0]?.id ?? '');
  const [note, setNote] = useState('');
  const [manualMinutes, setManualMinutes] = useState('');
  const [manualDate, setManualDate] = useState(todayIso());
  const [error, setError] = useState('');

  const taskTitle = useMemo(() => new Map(state.tasks.map((t) => [t.id, t.title])), [state.tasks]);

  const myEntries = useMemo(
    () => state.entries.filter((e) => e.memberId === state.currentUserId).sort((a, b) => b.date.localeCompare(a.date)).slice(0, 25),
    [state.entries, state.currentUserId],
  );

  const week = useMemo(() => {
    const today = new Date();
    const dow = state.prefs.weekStartsMonday ? (today.getDay() + 6) % 7 : today.getDay();
    return Array.from({ length: 7 }, (_, i) => {
      const date = isoOffset(i - dow);
      const minutes = state.entries.filter((e) => e.memberId === state.currentUserId && e.date === date).reduce((s, e) => s + e.minutes, 0);
      return { date, label: new Date(`${date}T00:00:00`).toLocaleDateString('en-US', { weekday: 'short' }), hours: minutes / 60 };
    });
  }, [state.entries, state.currentUserId, state.prefs.weekStartsMonday]);

  const log = (minutes: number, date: string) => {
    if (!taskId) {
      setError('Choose a task first');
      return false;
    }
    dispatch({ type: 'addEntry', entry: { id: newId('e'), taskId, memberId: state.currentUserId, date, minutes, note: note.trim() } });
    setNote('');
    setError('');
    return true;
  };

  const toggleTimer = () => {
    if (stopwatch.running) {
      const seconds = stopwatch.stop();
      const minutes = Math.max(1, Math.round(seconds / 60));
      log(minutes, todayIso());
    } else if (!taskId) {
      setError('Choose a task first');
    } else {
      stopwatch.start();
    }
  };

  const addManual = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const minutes = Number(manualMinutes);
    if (!Number.isInteger(minutes) || minutes < 5 || minutes > 24 * 60) {
      setError('Manual entries must be 5–1440 whole minutes');
      return;
    }
    if (manualDate > todayIso()) {
      setError('You cannot log time in the future');
      return;
    }
    if (log(minutes, manualDate)) setManualMinutes('');
  };

  const target = state.prefs.hoursPerDay;

  return (
    <div className="grid grid-cols-3 gap-6">
      <div className="col-span-2 space-y-6">
        <Card title="Track time">
          <div className="flex items-center gap-4">
            <select value={taskId} onChange={(e) => setTaskId(e.target.value)} disabled={stopwatch.running} className="flex-1 rounded-lg border border-slate-200 px-3 py-2 text-sm">
              {openTasks.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.title}
                </option>
              ))}
            </select>
            <div className={`font-mono text-2xl ${stopwatch.running ? 'text-indigo-600' : 'text-slate-400'}`}>{formatClock(stopwatch.elapsed)}</div>
            <button
              onClick={toggleTimer}
              className={`flex items-center gap-2 rounded-lg px-4 py-2 text-sm font-semibold text-white ${stopwatch.running ? 'bg-rose-500 hover:bg-rose-600' : 'bg-indigo-600 hover:bg-indigo-700'}`}
            >
              {stopwatch.running ? <Square size={14} /> : <Play size={14} />}
              {stopwatch.running ? 'Stop & log' : 'Start'}
            </button>
          </div>
          <input value={note} onChange={(e) => setNote(e.target.value)} placeholder="What are you working on? (optional)" className="mt-3 w-full rounded-lg border border-slate-200 px-3 py-2 text-sm" />
          <form onSubmit={addManual} className="mt-3 flex items-center gap-2 text-sm">
            <span className="text-slate-500">or add manually:</span>
            <input value={manualMinutes} onChange={(e) => setManualMinutes(e.target.value)} placeholder="minutes" className="w-24 rounded-lg border border-slate-200 px-2 py-1.5" />
            <input type="date" value={manualDate} onChange={(e) => setManualDate(e.target.value)} className="rounded-lg border border-slate-200 px-2 py-1.5" />
            <button type="submit" className="rounded-lg border border-slate-300 px-3 py-1.5 hover:bg-slate-50">
              Add entry
            </button>
          </form>
          {error && <p className="mt-2 text-xs text-rose-600">{error}</p>}
        </Card>

        <Card title="Recent entries">
          <table className="w-full text-sm">
            <thead className="text-left text-xs uppercase text-slate-400">
              <tr>
                <th className="pb-2 font-medium">Date</th>
                <th className="pb-2 font-medium">Task</th>
                <th className="pb-2 font-medium">Note</th>
                <th className="pb-2 text-right font-medium">Time</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {myEntries.map((e) => (
                <tr key={e.id} className="border-t border-slate-100">
                  <td className="py-2 text-slate-500">{e.date}</td>
                  <td className="py-2">{taskTitle.get(e.taskId) ?? 'Deleted task'}</td>
                  <td className="py-2 text-slate-400">{e.note || '—'}</td>
                  <td className="py-2 text-right font-mono">
                    {Math.floor(e.minutes / 60)}:{String(e.minutes % 60).padStart(2, '0')}
                  </td>
                  <td className="py-2 text-right">
                    <button onClick={() => dispatch({ type: 'deleteEntry', id: e.id })} className="text-slate-300 hover:text-rose-500" aria-label="Delete entry">
                      <Trash2 size={14} />
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {myEntries.length === 0 && <p className="py-6 text-center text-sm text-slate-400">No time logged yet.</p>}
        </Card>
      </div>

      <Card title="This week">
        <ul className="space-y-3">
          {week.map((d) => (
            <li key={d.date}>
              <div className="mb-1 flex justify-between text-sm">
                <span className={d.date === todayIso() ? 'font-semibold' : 'text-slate-600'}>
                  {d.label} <span className="text-xs text-slate-400">{d.date.slice(5)}</span>
                </span>
                <span className="font-mono text-xs">{formatHours(d.hours)}</span>
              </div>
              <ProgressBar value={d.hours / target} tone="bg-indigo-500" />
            </li>
          ))}
        </ul>
        <div className="mt-4 border-t border-slate-100 pt-3 text-sm">
          Total <span className="font-semibold">{formatHours(week.reduce((s, d) => s + d.hours, 0))}</span> of {target * 5}h target
        </div>
      </Card>
    </div>
  );
}

/* ------------------------------------------------------------------ */
/* Reports                                                             */
/* ------------------------------------------------------------------ */

function ReportsView() {
  const { state } = useStore();
  const stats = useProjectStats();
  const [days, setDays] = useState(28);

  const trend = useMemo(() => {
    const projectOf = new Map(state.tasks.map((t) => [t.id, t.projectId]));
    const active = state.projects.filter((p) => !p.archived);
    return Array.from({ length: days }, (_, i) => {
      const date = isoOffset(i - days + 1);
      const row: Record<string, number | string> = { date: date.slice(5) };
      active.forEach((p) => {
        row[p.name] = Math.round((state.entries.filter((e) => e.date === date && projectOf.get(e.taskId) === p.id).reduce((s, e) => s + e.minutes, 0) / 60) * 10) / 10;
      });
      return row;
    });
  }, [state.entries, state.tasks, state.projects, days]);

  const cumulative = useMemo(() => {
    let done = 0;
    let total = 0;
    const sortedDue = [...state.tasks].sort((a, b) => a.due.localeCompare(b.due));
    return sortedDue.map((t) => {
      total += t.estimate;
      if (t.status === 'done') done += t.estimate;
      return { due: t.due.slice(5), planned: total, completed: done };
    });
  }, [state.tasks]);

  const activeProjects = state.projects.filter((p) => !p.archived);
  const palette = ['#6366f1', '#0ea5e9', '#10b981', '#f59e0b', '#ec4899', '#8b5cf6'];

  return (
    <div className="space-y-6">
      <Card
        title="Hours per project"
        action={
          <select value={days} onChange={(e) => setDays(Number(e.target.value))} className="rounded-lg border border-slate-200 px-2 py-1 text-sm">
            <option value={7}>Last 7 days</option>
            <option value={14}>Last 14 days</option>
            <option value={28}>Last 28 days</option>
          </select>
        }
      >
        <div className="h-72">
          <ResponsiveContainer width="100%" height="100%">
            <AreaChart data={trend}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="date" tick={{ fontSize: 11 }} />
              <YAxis tick={{ fontSize: 11 }} width={32} />
              <Tooltip />
              <Legend />
              {activeProjects.map((p, i) => (
                <Area key={p.id} type="monotone" dataKey={p.name} stackId="1" stroke={palette[i % palette.length]} fill={palette[i % palette.length]} fillOpacity={0.35} />
              ))}
            </AreaChart>
          </ResponsiveContainer>
        </div>
      </Card>
      <div className="grid grid-cols-2 gap-6">
        <Card title="Planned vs completed effort">
          <div className="h-64">
            <ResponsiveContainer width="100%" height="100%">
              <LineChart data={cumulative}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="due" tick={{ fontSize: 11 }} />
                <YAxis tick={{ fontSize: 11 }} width={36} />
                <Tooltip />
                <Legend />
                <Line type="stepAfter" dataKey="planned" name="Planned (h)" stroke="#94a3b8" dot={false} />
                <Line type="stepAfter" dataKey="completed" name="Completed (h)" stroke="#10b981" strokeWidth={2} dot={false} />
              </LineChart>
            </ResponsiveContainer>
          </div>
        </Card>
        <Card title="Budget burn">
          <table className="w-full text-sm">
            <thead className="text-left text-xs uppercase text-slate-400">
              <tr>
                <th className="pb-2 font-medium">Project</th>
                <th className="pb-2 text-right font-medium">Logged</th>
                <th className="pb-2 text-right font-medium">Budget</th>
                <th className="pb-2 pl-4 font-medium">Burn</th>
              </tr>
            </thead>
            <tbody>
              {stats
                .filter((s) => !s.project.archived)
                .map((s) => (
                  <tr key={s.project.id} className="border-t border-slate-100">
                    <td className="py-2">{s.project.name}</td>
                    <td className="py-2 text-right">{formatHours(s.hoursLogged)}</td>
                    <td className="py-2 text-right">{s.project.budgetHours}h</td>
                    <td className="w-32 py-2 pl-4">
                      <ProgressBar value={s.budgetUsed} tone="bg-amber-400" />
                    </td>
                  </tr>
                ))}
            </tbody>
          </table>
        </Card>
      </div>
    </div>
  );
}

/* ------------------------------------------------------------------ */
/* Settings                                                            */
/* ------------------------------------------------------------------ */

function SettingsView() {
  const { state, dispatch } = useStore();
  const [hours, setHours] = useState(String(state.prefs.hoursPerDay));
  const [saved, setSaved] = useState(false);
  const hoursError = !/^\d+(\.\d)?$/.test(hours) || Number(hours) < 1 || Number(hours) > 16 ? 'Between 1 and 16 hours' : '';

  useEffect(() => {
    if (!saved) return;
    const t = setTimeout(() => setSaved(false), 2000);
    return () => clearTimeout(t);
  }, [saved]);

  const save = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (hoursError) return;
    dispatch({ type: 'setPrefs', patch: { hoursPerDay: Number(hours) } });
    setSaved(true);
  };

  return (
    <Card title="Workspace preferences" className="max-w-xl">
      <form onSubmit={save} className="space-y-5 text-sm">
        <label className="flex items-center justify-between">
          <span>
            <span className="block font-medium">Week starts on Monday</span>
            <span className="text-xs text-slate-500">Affects the timesheet and reports</span>
          </span>
          <input type="checkbox" checked={state.prefs.weekStartsMonday} onChange={(e) => dispatch({ type: 'setPrefs', patch: { weekStartsMonday: e.target.checked } })} />
        </label>
        <label className="flex items-center justify-between">
          <span className="font-medium">Table density</span>
          <select
            value={state.prefs.density}
            onChange={(e) => dispatch({ type: 'setPrefs', patch: { density: e.target.value as Preferences['density'] } })}
            className="rounded-lg border border-slate-200 px-2 py-1"
          >
            <option value="comfortable">Comfortable</option>
            <option value="compact">Compact</option>
          </select>
        </label>
        <label className="block">
          <span className="mb-1 block font-medium">Working hours per day</span>
          <input value={hours} onChange={(e) => setHours(e.target.value)} className={`w-32 rounded-lg border px-3 py-2 ${hoursError ? 'border-rose-400' : 'border-slate-300'}`} />
          {hoursError && <span className="ml-2 text-xs text-rose-600">{hoursError}</span>}
        </label>
        <div className="flex items-center gap-3">
          <button type="submit" disabled={Boolean(hoursError)} className="rounded-lg bg-indigo-600 px-4 py-2 font-medium text-white disabled:opacity-40">
            Save
          </button>
          {saved && <span className="text-emerald-600">Preferences saved</span>}
        </div>
      </form>
    </Card>
  );
}

/* ------------------------------------------------------------------ */
/* Command palette                                                     */
/* ------------------------------------------------------------------ */

interface CommandItem {
  id: string;
  label: string;
  hint: string;
  run: () => void;
}

function CommandPalette({ items, onClose }: { items: CommandItem[]; onClose: () => void }) {
  const [query, setQuery] = useState('');
  const [cursor, setCursor] = useState(0);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    inputRef.current?.focus();
  }, []);

  const matches = useMemo(() => {
    const q = query.toLowerCase();
    return items.filter((i) => i.label.toLowerCase().includes(q) || i.hint.toLowerCase().includes(q)).slice(0, 8);
  }, [items, query]);

  const onKeyDown = (e: ReactKeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setCursor((c) => Math.min(c + 1, matches.length - 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setCursor((c) => Math.max(c - 1, 0));
    } else if (e.key === 'Enter') {
      const item = matches[cursor];
      if (item) {
        item.run();
        onClose();
      }
    } else if (e.key === 'Escape') {
      onClose();
    }
  };

  return (
    <div className="fixed inset-0 z-50 flex items-start justify-center bg-slate-900/40 pt-32" onClick={onClose}>
      <div className="w-full max-w-lg overflow-hidden rounded-2xl bg-white shadow-2xl" onClick={(e) => e.stopPropagation()}>
        <div className="flex items-center gap-2 border-b border-slate-200 px-4 py-3">
          <Command size={16} className="text-slate-400" />
          <input
            ref={inputRef}
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              setCursor(0);
            }}
            onKeyDown={onKeyDown}
            placeholder="Jump to a view, project or task…"
            className="w-full text-sm outline-none"
          />
        </div>
        <ul className="max-h-80 overflow-y-auto py-2">
          {matches.map((m, i) => (
            <li key={m.id}>
              <button
                onMouseEnter={() => setCursor(i)}
                onClick={() => {
                  m.run();
                  onClose();
                }}
                className={`flex w-full items-center justify-between px-4 py-2 text-left text-sm ${i === cursor ? 'bg-indigo-50 text-indigo-700' : ''}`}
              >
                <span>{m.label}</span>
                <span className="flex items-center gap-1 text-xs text-slate-400">
                  {m.hint} <ChevronRight size={12} />
                </span>
              </button>
            </li>
          ))}
          {matches.length === 0 && <li className="px-4 py-6 text-center text-sm text-slate-400">No results</li>}
        </ul>
      </div>
    </div>
  );
}

/* ------------------------------------------------------------------ */
/* Shell                                                               */
/* ------------------------------------------------------------------ */

const NAV: { view: View; label: string; icon: typeof LayoutDashboard }[] = [
  { view: 'dashboard', label: 'Dashboard', icon: LayoutDashboard },
  { view: 'projects', label: 'Projects', icon: FolderKanban },
  { view: 'tasks', label: 'Tasks', icon: ListChecks },
  { view: 'team', label: 'Team', icon: Users },
  { view: 'time', label: 'Timesheet', icon: Clock },
  { view: 'reports', label: 'Reports', icon: FileBarChart },
  { view: 'settings', label: 'Settings', icon: Settings },
];

export default function App() {
  const [state, dispatch] = useReducer(reducer, undefined, initialState);
  const [view, setView] = useState<View>('dashboard');
  const [focusId, setFocusId] = useState<string | undefined>(undefined);
  const [paletteOpen, setPaletteOpen] = useState(false);
  const [bellOpen, setBellOpen] = useState(false);

  const navigate = useCallback((next: View, id?: string) => {
    setView(next);
    setFocusId(id);
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.metaKey || e.ctrlKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setPaletteOpen((o) => !o);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const store = useMemo<Store>(() => ({ state, dispatch, navigate }), [state, navigate]);
  const unread = state.notifications.filter((n) => !n.read).length;
  const me = state.members.find((m) => m.id === state.currentUserId);

  const commands = useMemo<CommandItem[]>(
    () => [
      ...NAV.map((n) => ({ id: `view-${n.view}`, label: `Go to ${n.label}`, hint: 'View', run: () => navigate(n.view) })),
      ...state.projects.map((p) => ({ id: `project-${p.id}`, label: p.name, hint: 'Project', run: () => navigate('projects', p.id) })),
      ...state.tasks.map((t) => ({ id: `task-${t.id}`, label: t.title, hint: 'Task', run: () => navigate('tasks') })),
    ],
    [state.projects, state.tasks, navigate],
  );

  const current = NAV.find((n) => n.view === view) ?? NAV[0];

  return (
    <StoreContext.Provider value={store}>
      <div className="flex min-h-screen bg-slate-50 text-slate-800">
        <aside className="flex w-60 shrink-0 flex-col border-r border-slate-200 bg-white">
          <div className="flex items-center gap-2 px-5 py-5 text-lg font-bold">
            <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-indigo-600 text-white">P</span>
            Project Hub
          </div>
          <nav className="flex-1 space-y-1 px-3">
            {NAV.map((n) => {
              const Icon = n.icon;
              return (
                <button
                  key={n.view}
                  onClick={() => navigate(n.view)}
                  className={`flex w-full items-center gap-3 rounded-lg px-3 py-2 text-sm ${view === n.view ? 'bg-indigo-50 font-semibold text-indigo-700' : 'text-slate-600 hover:bg-slate-100'}`}
                >
                  <Icon size={18} />
                  {n.label}
                  {n.view === 'tasks' && <span className="ml-auto rounded-full bg-slate-100 px-2 text-xs text-slate-500">{state.tasks.filter((t) => t.status !== 'done').length}</span>}
                </button>
              );
            })}
          </nav>
          <div className="flex items-center gap-3 border-t border-slate-200 px-5 py-4">
            <Avatar member={me} size={34} />
            <div className="text-sm">
              <div className="font-medium">{me?.name}</div>
              <div className="text-xs text-slate-500">{me?.role}</div>
            </div>
          </div>
        </aside>

        <div className="flex flex-1 flex-col">
          <header className="flex items-center justify-between border-b border-slate-200 bg-white px-8 py-4">
            <div>
              <h1 className="text-xl font-bold text-slate-900">{current.label}</h1>
              <p className="flex items-center gap-1 text-xs text-slate-400">
                <Calendar size={12} /> {new Date().toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric' })}
              </p>
            </div>
            <div className="flex items-center gap-3">
              <button onClick={() => setPaletteOpen(true)} className="flex items-center gap-2 rounded-lg border border-slate-200 px-3 py-1.5 text-sm text-slate-500 hover:bg-slate-50">
                <Search size={14} /> Search <kbd className="rounded bg-slate-100 px-1.5 text-[10px]">Ctrl K</kbd>
              </button>
              <div className="relative">
                <button onClick={() => setBellOpen((o) => !o)} className="relative rounded-lg p-2 hover:bg-slate-100" aria-label="Notifications">
                  <Bell size={18} />
                  {unread > 0 && <span className="absolute right-1 top-1 flex h-4 min-w-4 items-center justify-center rounded-full bg-rose-500 px-1 text-[10px] font-bold text-white">{unread}</span>}
                </button>
                {bellOpen && (
                  <div className="absolute right-0 z-30 mt-2 w-80 rounded-xl border border-slate-200 bg-white shadow-xl">
                    <div className="flex items-center justify-between border-b border-slate-100 px-4 py-2">
                      <span className="text-sm font-semibold">Notifications</span>
                      <button onClick={() => dispatch({ type: 'readAll' })} className="text-xs text-indigo-600 hover:underline">
                        Mark all read
                      </button>
                    </div>
                    <ul className="max-h-72 overflow-y-auto">
                      {state.notifications.map((n) => (
                        <li key={n.id} className={`px-4 py-2 text-sm ${n.read ? 'text-slate-500' : 'bg-indigo-50/40 font-medium'}`}>
                          {n.text}
                          <div className="text-[10px] font-normal text-slate-400">{new Date(n.at).toLocaleString()}</div>
                        </li>
                      ))}
                    </ul>
                  </div>
                )}
              </div>
            </div>
          </header>

          <main className="flex-1 overflow-y-auto p-8">
            {view === 'dashboard' && <DashboardView />}
            {view === 'projects' && <ProjectsView key={focusId ?? 'none'} focusId={focusId} />}
            {view === 'tasks' && <TasksView />}
            {view === 'team' && <TeamView />}
            {view === 'time' && <TimeView />}
            {view === 'reports' && <ReportsView />}
            {view === 'settings' && <SettingsView />}
          </main>
        </div>
      </div>
      {paletteOpen && <CommandPalette items={commands} onClose={() => setPaletteOpen(false)} />}
    </StoreContext.Provider>
  );
}
