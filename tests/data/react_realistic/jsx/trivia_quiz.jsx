// Trivia Quiz: timed multiple-choice quiz with categories, streak bonus, animated transitions and a results review
import { useState, useEffect, useReducer, useMemo, useCallback } from 'react';
import { motion, AnimatePresence } from 'framer-motion';

const QUESTIONS = [
  { id: 1, category: 'Science', q: 'What gas do plants absorb from the atmosphere?', options: ['Oxygen', 'Carbon dioxide', 'Nitrogen', 'Helium'], answer: 1 },
  { id: 2, category: 'Science', q: 'How many bones are in the adult human body?', options: ['186', '206', '226', '246'], answer: 1 },
  { id: 3, category: 'Science', q: 'Which planet has the shortest day?', options: ['Jupiter', 'Mars', 'Mercury', 'Earth'], answer: 0 },
  { id: 4, category: 'History', q: 'In which year did the Berlin Wall fall?', options: ['1987', '1989', '1991', '1993'], answer: 1 },
  { id: 5, category: 'History', q: 'Which civilisation built Machu Picchu?', options: ['Aztec', 'Maya', 'Inca', 'Olmec'], answer: 2 },
  { id: 6, category: 'History', q: 'Who was the first person to walk on the Moon?', options: ['Buzz Aldrin', 'Yuri Gagarin', 'Neil Armstrong', 'John Glenn'], answer: 2 },
  { id: 7, category: 'Geography', q: 'What is the longest river in South America?', options: ['Orinoco', 'Amazon', 'Paraná', 'Magdalena'], answer: 1 },
  { id: 8, category: 'Geography', q: 'Which country has the most islands?', options: ['Indonesia', 'Philippines', 'Sweden', 'Canada'], answer: 2 },
  { id: 9, category: 'Geography', q: 'What is the capital of Australia?', options: ['Sydney', 'Melbourne', 'Canberra', 'Perth'], answer: 2 },
  { id: 10, category: 'Tech', q: 'What does CSS stand for?', options: ['Cascading Style Sheets', 'Computer Style Syntax', 'Creative Sheet System', 'Colour Styling Standard'], answer: 0 },
  { id: 11, category: 'Tech', q: 'Which company created JavaScript?', options: ['Microsoft', 'Sun Microsystems', 'Netscape', 'Apple'], answer: 2 },
  { id: 12, category: 'Tech', q: 'What is the binary value of decimal 10?', options: ['1001', '1010', '1100', '0110'], answer: 1 },
];

const SECONDS_PER_QUESTION = 15;

function shuffle(list) {
  const copy = list.slice();
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

const initialState = { phase: 'menu', questions: [], index: 0, answers: [], score: 0, streak: 0, timeLeft: SECONDS_PER_QUESTION, selected: null };

function reducer(state, action) {
  switch (action.type) {
    case 'start':
      return { ...initialState, phase: 'playing', questions: action.questions };
    case 'tick':
      return { ...state, timeLeft: Math.max(0, state.timeLeft - 1) };
    case 'answer': {
      if (state.selected !== null) return state;
      const question = state.questions[state.index];
      const correct = action.choice === question.answer;
      const streak = correct ? state.streak + 1 : 0;
      const points = correct ? 100 + state.timeLeft * 5 + (streak >= 3 ? 50 : 0) : 0;
      return {
        ...state,
        selected: action.choice,
        streak,
        score: state.score + points,
        answers: [...state.answers, { id: question.id, choice: action.choice, correct, points }],
      };
    }
    case 'next': {
      const last = state.index + 1 >= state.questions.length;
      if (last) return { ...state, phase: 'results' };
      return { ...state, index: state.index + 1, selected: null, timeLeft: SECONDS_PER_QUESTION };
    }
    case 'menu':
      return initialState;
    default:
      return state;
  }
}

export default function App() {
  const [state, dispatch] = useReducer(reducer, initialState);
  const [category, setCategory] = useState('All');
  const [count, setCount] = useState(6);
  const { phase, questions, index, selected, timeLeft, score, streak, answers } = state;
  const current = questions[index];

  const categories = useMemo(() => ['All', ...new Set(QUESTIONS.map((q) => q.category))], []);
  const available = useMemo(() => QUESTIONS.filter((q) => category === 'All' || q.category === category), [category]);

  const start = useCallback(() => {
    dispatch({ type: 'start', questions: shuffle(available).slice(0, Math.min(count, available.length)) });
  }, [available, count]);

  useEffect(() => {
    if (phase !== 'playing' || selected !== null) return undefined;
    const id = setInterval(() => dispatch({ type: 'tick' }), 1000);
    return () => clearInterval(id);
  }, [phase, selected, index]);

  useEffect(() => {
    if (phase === 'playing' && timeLeft === 0 && selected === null) dispatch({ type: 'answer', choice: -1 });
  }, [phase, timeLeft, selected]);

  useEffect(() => {
    if (phase !== 'playing') return undefined;
    const onKey = (e) => {
      const n = Number(e.key);
      if (n >= 1 && n <= 4 && selected === null) dispatch({ type: 'answer', choice: n - 1 });
      if (e.key === 'Enter' && selected !== null) dispatch({ type: 'next' });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [phase, selected]);

  const correctCount = answers.filter((a) => a.correct).length;

  return (
    <div className="min-h-screen bg-gradient-to-br from-indigo-900 via-purple-900 to-fuchsia-900 text-white flex items-center justify-center p-6">
      <div className="w-full max-w-2xl">
        <AnimatePresence mode="wait">
          {phase === 'menu' && (
            <motion.div key="menu" initial={{ opacity: 0, y: 20 }} animate={{ opacity: 1, y: 0 }} exit={{ opacity: 0, y: -20 }} className="bg-white/10 backdrop-blur rounded-3xl p-10 text-center">
              <h1 className="text-5xl font-black">Brain Buzz</h1>
              <p className="text-white/70 mt-3">Answer fast for bonus points. Three in a row earns a streak bonus.</p>
              <div className="mt-8">
                <p className="text-sm uppercase tracking-widest text-white/60 mb-3">Category</p>
                <div className="flex flex-wrap justify-center gap-2">
                  {categories.map((c) => (
                    <button key={c} onClick={() => setCategory(c)} className={`px-4 py-2 rounded-full text-sm font-semibold ${category === c ? 'bg-white text-purple-900' : 'bg-white/10 hover:bg-white/20'}`}>
                      {c}
                    </button>
                  ))}
                </div>
              </div>
              <div className="mt-6">
                <p className="text-sm uppercase tracking-widest text-white/60 mb-3">Questions: {Math.min(count, available.length)}</p>
                <input type="range" min={3} max={12} value={count} onChange={(e) => setCount(Number(e.target.value))} className="w-64 accent-fuchsia-400" />
              </div>
              <button onClick={start} className="mt-8 bg-fuchsia-500 hover:bg-fuchsia-400 px-10 py-3 rounded-xl font-bold text-lg shadow-lg">Start quiz</button>
            </motion.div>
          )}

          {phase === 'playing' && current && (
            <motion.div key={current.id} initial={{ opacity: 0, x: 60 }} animate={{ opacity: 1, x: 0 }} exit={{ opacity: 0, x: -60 }} transition={{ duration: 0.25 }} className="bg-white text-slate-900 rounded-3xl p-8 shadow-2xl">
              <div className="flex items-center justify-between text-sm text-slate-500">
                <span>Question {index + 1} of {questions.length} · {current.category}</span>
                <span className="font-semibold text-purple-700">{score} pts{streak >= 2 ? ` · 🔥 ${streak}` : ''}</span>
              </div>
              <div className="h-2 bg-slate-100 rounded-full mt-3 overflow-hidden">
                <motion.div className={`h-full ${timeLeft <= 5 ? 'bg-rose-500' : 'bg-purple-500'}`} animate={{ width: `${(timeLeft / SECONDS_PER_QUESTION) * 100}%` }} transition={{ ease: 'linear', duration: 0.9 }} />
              </div>
              <h2 className="text-2xl font-bold mt-6">{current.q}</h2>
              <div className="grid grid-cols-2 gap-3 mt-6">
                {current.options.map((opt, i) => {
                  let style = 'border-slate-200 hover:border-purple-400 hover:bg-purple-50';
                  if (selected !== null) {
                    if (i === current.answer) style = 'border-emerald-500 bg-emerald-50 text-emerald-800';
                    else if (i === selected) style = 'border-rose-500 bg-rose-50 text-rose-800';
                    else style = 'border-slate-200 opacity-50';
                  }
                  return (
                    <button key={opt} disabled={selected !== null} onClick={() => dispatch({ type: 'answer', choice: i })} className={`text-left border-2 rounded-xl px-4 py-3 font-medium transition ${style}`}>
                      <span className="text-xs text-slate-400 mr-2">{i + 1}</span>{opt}
                    </button>
                  );
                })}
              </div>
              {selected !== null && (
                <div className="flex items-center justify-between mt-6">
                  <p className={`font-semibold ${selected === current.answer ? 'text-emerald-600' : 'text-rose-600'}`}>
                    {selected === current.answer ? `Correct! +${answers[answers.length - 1].points}` : selected === -1 ? 'Out of time!' : 'Not quite.'}
                  </p>
                  <button onClick={() => dispatch({ type: 'next' })} className="bg-purple-600 hover:bg-purple-700 text-white px-6 py-2 rounded-lg font-semibold">
                    {index + 1 === questions.length ? 'See results' : 'Next question'}
                  </button>
                </div>
              )}
            </motion.div>
          )}

          {phase === 'results' && (
            <motion.div key="results" initial={{ opacity: 0, scale: 0.95 }} animate={{ opacity: 1, scale: 1 }} className="bg-white text-slate-900 rounded-3xl p-8 shadow-2xl">
              <h2 className="text-3xl font-black text-center">Quiz complete!</h2>
              <p className="text-center text-slate-500 mt-2">{correctCount} of {questions.length} correct · {score} points</p>
              <div className="flex justify-center mt-4">
                <div className="text-6xl">{correctCount === questions.length ? '🏆' : correctCount >= questions.length / 2 ? '🎉' : '📚'}</div>
              </div>
              <ul className="mt-6 space-y-2 max-h-72 overflow-y-auto">
                {questions.map((q, i) => {
                  const a = answers[i];
                  return (
                    <li key={q.id} className={`rounded-lg px-4 py-2 text-sm ${a && a.correct ? 'bg-emerald-50' : 'bg-rose-50'}`}>
                      <p className="font-medium">{q.q}</p>
                      <p className="text-slate-500">
                        Answer: {q.options[q.answer]}
                        {a && !a.correct && ` · You said: ${a.choice === -1 ? 'nothing (timeout)' : q.options[a.choice]}`}
                      </p>
                    </li>
                  );
                })}
              </ul>
              <div className="flex justify-center gap-3 mt-6">
                <button onClick={start} className="bg-purple-600 hover:bg-purple-700 text-white px-6 py-2 rounded-lg font-semibold">Play again</button>
                <button onClick={() => dispatch({ type: 'menu' })} className="border border-slate-300 px-6 py-2 rounded-lg font-semibold">Change settings</button>
              </div>
            </motion.div>
          )}
        </AnimatePresence>
      </div>
    </div>
  );
}
