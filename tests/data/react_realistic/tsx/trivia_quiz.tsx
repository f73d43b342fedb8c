// Trivia Quiz: timed multiple-choice quiz with categories, per-question countdown, streak bonus, answer review and a results chart
import { useCallback, useEffect, useMemo, useReducer } from 'react';
import { PieChart, Pie, Cell, Tooltip, ResponsiveContainer } from 'recharts';

type CategoryName = 'Science' | 'Geography' | 'History' | 'Tech';

interface Question {
  id: number;
  category: CategoryName;
  prompt: string;
  options: string[];
  answer: number;
}

interface AnswerRecord {
  questionId: number;
  chosen: number | null; // null = timed out
  correct: boolean;
  points: number;
  timeLeft: number;
}

type Phase = 'menu' | 'question' | 'feedback' | 'results';

interface QuizState {
  phase: Phase;
  category: CategoryName | 'Mixed';
  queue: Question[];
  index: number;
  timeLeft: number;
  streak: number;
  answers: AnswerRecord[];
}

type QuizAction =
  | { type: 'start'; category: CategoryName | 'Mixed' }
  | { type: 'tick' }
  | { type: 'answer'; choice: number | null }
  | { type: 'next' }
  | { type: 'menu' };

const SECONDS_PER_QUESTION = 15;

const BANK: Question[] = [
  { id: 1, category: 'Science', prompt: 'What gas do plants absorb from the atmosphere?', options: ['Oxygen', 'Nitrogen', 'Carbon dioxide', 'Helium'], answer: 2 },
  { id: 2, category: 'Science', prompt: 'How many bones are in the adult human body?', options: ['186', '206', '226', '246'], answer: 1 },
  { id: 3, category: 'Science', prompt: 'Which planet has the shortest day?', options: ['Jupiter', 'Mars', 'Mercury', 'Earth'], answer: 0 },
  { id: 4, category: 'Geography', prompt: 'Which river flows through Budapest?', options: ['Rhine', 'Danube', 'Vistula', 'Elbe'], answer: 1 },
  { id: 5, category: 'Geography', prompt: 'What is the capital of Canada?', options: ['Toronto', 'Vancouver', 'Montreal', 'Ottawa'], answer: 3 },
  { id: 6, category: 'Geography', prompt: 'Which desert is the largest hot desert?', options: ['Gobi', 'Kalahari', 'Sahara', 'Mojave'], answer: 2 },
  { id: 7, category: 'History', prompt: 'In which year did the Berlin Wall fall?', options: ['1987', '1989', '1991', '1993'], answer: 1 },
  { id: 8, category: 'History', prompt: 'Who was the first person to walk on the Moon?', options: ['Buzz Aldrin', 'Yuri Gagarin', 'Neil Armstrong', 'John Glenn'], answer: 2 },
  { id: 9, category: 'History', prompt: 'The Rosetta Stone helped decode which script?', options: ['Cuneiform', 'Hieroglyphs', 'Linear B', 'Runes'], answer: 1 },
  { id: 10, category: 'Tech', prompt: 'What does the "S" in HTTPS stand for?', options: ['Secure', 'Server', 'Socket', 'Standard'], answer: 0 },
  { id: 11, category: 'Tech', prompt: 'Which company created the JavaScript language?', options: ['Microsoft', 'Sun', 'Netscape', 'Apple'], answer: 2 },
  { id: 12, category: 'Tech', prompt: 'How many bits are in a byte?', options: ['4', '8', '16', '32'], answer: 1 },
];

const CATEGORY_COLORS: Record<CategoryName, string> = { Science: '#10b981', Geography: '#3b82f6', History: '#f59e0b', Tech: '#8b5cf6' };

function shuffled<T>(arr: T[]): T[] {
  const a = [...arr];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

const initial: QuizState = { phase: 'menu', category: 'Mixed', queue: [], index: 0, timeLeft: SECONDS_PER_QUESTION, streak: 0, answers: [] };

function reducer(state: QuizState, action: QuizAction): QuizState {
  switch (action.type) {
    case 'start': {
      const pool = action.category === 'Mixed' ? BANK : BANK.filter((q) => q.category === action.category);
      const queue = shuffled(pool).slice(0, action.category === 'Mixed' ? 8 : pool.length);
      return { ...initial, phase: 'question', category: action.category, queue };
    }
    case 'tick':
      if (state.phase !== 'question') return state;
      if (state.timeLeft <= 1) return reducer({ ...state, timeLeft: 0 }, { type: 'answer', choice: null });
      return { ...state, timeLeft: state.timeLeft - 1 };
    case 'answer': {
      if (state.phase !== 'question') return state;
      const q = state.queue[state.index];
      const correct = action.choice === q.answer;
      const streak = correct ? state.streak + 1 : 0;
      const points = correct ? 100 + state.timeLeft * 10 + (streak >= 3 ? 50 : 0) : 0;
      return { ...state, phase: 'feedback', streak, answers: [...state.answers, { questionId: q.id, chosen: action.choice, correct, points, timeLeft: state.timeLeft }] };
    }
    case 'next':
      if (state.index + 1 >= state.queue.length) return { ...state, phase: 'results' };
      return { ...state, phase: 'question', index: state.index + 1, timeLeft: SECONDS_PER_QUESTION };
    case 'menu':
      return initial;
  }
}

export default function App() {
  const [state, dispatch] = useReducer(reducer, initial);
  const question = state.queue[state.index];
  const lastAnswer = state.answers[state.answers.length - 1];

  useEffect(() => {
    if (state.phase !== 'question') return;
    const id = setInterval(() => dispatch({ type: 'tick' }), 1000);
    return () => clearInterval(id);
  }, [state.phase, state.index]);

  const onKey = useCallback(
    (e: KeyboardEvent) => {
      if (state.phase === 'question' && ['1', '2', '3', '4'].includes(e.key)) dispatch({ type: 'answer', choice: Number(e.key) - 1 });
      if (state.phase === 'feedback' && e.key === 'Enter') dispatch({ type: 'next' });
    },
    [state.phase],
  );

  useEffect(() => {
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onKey]);

  const results = useMemo(() => {
    const score = state.answers.reduce((s, a) => s + a.points, 0);
    const correct = state.answers.filter((a) => a.correct).length;
    const timedOut = state.answers.filter((a) => a.chosen === null).length;
    const pie = [
      { name: 'Correct', value: correct, color: '#22c55e' },
      { name: 'Wrong', value: state.answers.length - correct - timedOut, color: '#ef4444' },
      { name: 'Timed out', value: timedOut, color: '#a1a1aa' },
    ].filter((p) => p.value > 0);
    const avgTime = state.answers.length ? state.answers.reduce((s, a) => s + (SECONDS_PER_QUESTION - a.timeLeft), 0) / state.answers.length : 0;
    return { score, correct, pie, avgTime };
  }, [state.answers]);

  return (
    <div className="flex min-h-screen items-center justify-center bg-gradient-to-br from-slate-900 to-indigo-950 p-6 text-white">
      <div className="w-full max-w-2xl">
        {state.phase === 'menu' && (
          <div className="rounded-3xl bg-white/5 p-10 text-center ring-1 ring-white/10">
            <h1 className="text-4xl font-black">Quick Trivia</h1>
            <p className="mt-2 text-slate-300">
              {SECONDS_PER_QUESTION} seconds per question. Faster answers score more; three in a row earns a streak bonus.
            </p>
            <div className="mt-8 grid grid-cols-2 gap-3">
              {(['Mixed', ...Object.keys(CATEGORY_COLORS)] as (CategoryName | 'Mixed')[]).map((c) => (
                <button
                  key={c}
                  onClick={() => dispatch({ type: 'start', category: c })}
                  className="rounded-2xl py-4 text-lg font-semibold transition hover:scale-[1.02]"
                  style={{ backgroundColor: c === 'Mixed' ? '#6366f1' : CATEGORY_COLORS[c] }}
                >
                  {c}
                </button>
              ))}
            </div>
          </div>
        )}

        {(state.phase === 'question' || state.phase === 'feedback') && question && (
          <div className="rounded-3xl bg-white/5 p-8 ring-1 ring-white/10">
            <div className="mb-4 flex items-center justify-between text-sm text-slate-300">
              <span>
                Question {state.index + 1} / {state.queue.length}
              </span>
              <span className="rounded-full px-3 py-1 text-xs font-semibold" style={{ backgroundColor: CATEGORY_COLORS[question.category] }}>
                {question.category}
              </span>
              <span>Streak {state.streak}</span>
            </div>
            <div className="mb-6 h-2 overflow-hidden rounded-full bg-white/10">
              <div
                className={`h-full transition-all duration-1000 ease-linear ${state.timeLeft <= 5 ? 'bg-red-500' : 'bg-indigo-400'}`}
                style={{ width: `${(state.timeLeft / SECONDS_PER_QUESTION) * 100}%` }}
              />
            </div>
            <h2 className="mb-6 text-2xl font-bold">{question.prompt}</h2>
            <div className="grid gap-3">
              {question.options.map((opt, i) => {
                let style = 'bg-white/10 hover:bg-white/20';
                if (state.phase === 'feedback') {
                  if (i === question.answer) style = 'bg-green-500/80';
                  else if (i === lastAnswer?.chosen) style = 'bg-red-500/80';
                  else style = 'bg-white/5 opacity-60';
                }
                return (
                  <button
                    key={opt}
                    disabled={state.phase !== 'question'}
                    onClick={() => dispatch({ type: 'answer', choice: i })}
                    className={`flex items-center gap-3 rounded-xl px-5 py-4 text-left text-lg transition ${style}`}
                  >
                    <span className="flex h-7 w-7 items-center justify-center rounded-full bg-black/20 text-sm">{i + 1}</span>
                    {opt}
                  </button>
                );
              })}
            </div>
            {state.phase === 'feedback' && lastAnswer && (
              <div className="mt-6 flex items-center justify-between">
                <p className={lastAnswer.correct ? 'text-green-300' : 'text-red-300'}>
                  {lastAnswer.correct ? `Correct! +${lastAnswer.points}` : lastAnswer.chosen === null ? 'Out of time!' : `Not quite. It was ${question.options[question.answer]}.`}
                </p>
                <button onClick={() => dispatch({ type: 'next' })} className="rounded-xl bg-indigo-500 px-6 py-2 font-semibold hover:bg-indigo-400">
                  {state.index + 1 >= state.queue.length ? 'See results' : 'Next'}
                </button>
              </div>
            )}
            {state.phase === 'question' && <p className="mt-6 text-right font-mono text-3xl">{state.timeLeft}s</p>}
          </div>
        )}

        {state.phase === 'results' && (
          <div className="rounded-3xl bg-white/5 p-8 ring-1 ring-white/10">
            <h1 className="text-center text-3xl font-black">Final score: {results.score}</h1>
            <p className="mt-1 text-center text-slate-300">
              {results.correct} of {state.answers.length} correct · average {results.avgTime.toFixed(1)}s per answer
            </p>
            <div className="my-6 h-56">
              <ResponsiveContainer width="100%" height="100%">
                <PieChart>
                  <Pie data={results.pie} dataKey="value" nameKey="name" innerRadius={55} outerRadius={85} paddingAngle={3}>
                    {results.pie.map((p) => (
                      <Cell key={p.name} fill={p.color} />
                    ))}
                  </Pie>
                  <Tooltip />
                </PieChart>
              </ResponsiveContainer>
            </div>
            <ol className="max-h-64 space-y-2 overflow-y-auto">
              {state.answers.map((a, i) => {
                const q = BANK.find((x) => x.id === a.questionId);
                if (!q) return null;
                return (
                  <li key={a.questionId} className="rounded-xl bg-white/5 px-4 py-2 text-sm">
                    <span className={a.correct ? 'text-green-400' : 'text-red-400'}>{a.correct ? '✓' : '✗'}</span> {i + 1}. {q.prompt}
                    <div className="text-xs text-slate-400">
                      Answer: {q.options[q.answer]}
                      {!a.correct && a.chosen !== null && ` · you said ${q.options[a.chosen]}`}
                      {a.points > 0 && ` · +${a.points}`}
                    </div>
                  </li>
                );
              })}
            </ol>
            <div className="mt-6 flex justify-center gap-3">
              <button onClick={() => dispatch({ type: 'start', category: state.category })} className="rounded-xl bg-indigo-500 px-6 py-2 font-semibold hover:bg-indigo-400">
                Play again
              </button>
              <button onClick={() => dispatch({ type: 'menu' })} className="rounded-xl bg-white/10 px-6 py-2 font-semibold hover:bg-white/20">
                Change category
              </button>
            </div>
          </div>
        )}
      </div>
    </div>
  );
}
