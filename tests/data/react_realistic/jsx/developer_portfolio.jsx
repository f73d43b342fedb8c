// Developer Portfolio: personal site with animated hero, filterable project grid, skills, experience timeline and a validated contact form
import { useState, useEffect, useMemo } from 'react';
import { motion, AnimatePresence } from 'framer-motion';
import { FaGithub, FaLinkedin, FaTwitter, FaEnvelope, FaReact, FaNodeJs, FaPython, FaDocker, FaExternalLinkAlt, FaMoon, FaSun } from 'react-icons/fa';

const ROLES = ['frontend engineer', 'design-minded developer', 'open-source maintainer'];

const PROJECTS = [
  { id: 'p1', name: 'Tidepool', blurb: 'Real-time collaborative whiteboard with offline sync and CRDT merging.', tags: ['react', 'node'], stars: 1240, year: 2024 },
  { id: 'p2', name: 'Quillmark', blurb: 'A tiny markdown editor that compiles to accessible HTML.', tags: ['react'], stars: 860, year: 2023 },
  { id: 'p3', name: 'Ferry', blurb: 'CLI to ship static sites to any S3-compatible bucket in one command.', tags: ['node', 'devops'], stars: 540, year: 2023 },
  { id: 'p4', name: 'Sprout ML', blurb: 'Friendly notebooks for teaching gradient descent to high-school students.', tags: ['python'], stars: 310, year: 2022 },
  { id: 'p5', name: 'Harbor', blurb: 'Docker compose dashboard with live logs and one-click restarts.', tags: ['devops', 'react'], stars: 975, year: 2024 },
  { id: 'p6', name: 'Palette Pal', blurb: 'Generate accessible colour palettes with contrast checks built in.', tags: ['react'], stars: 420, year: 2022 },
];

const SKILLS = [
  { name: 'React', icon: FaReact, level: 95 },
  { name: 'Node.js', icon: FaNodeJs, level: 85 },
  { name: 'Python', icon: FaPython, level: 70 },
  { name: 'Docker', icon: FaDocker, level: 65 },
];

const EXPERIENCE = [
  { role: 'Senior Frontend Engineer', company: 'Brightside', period: '2022 — now', text: 'Lead the design-system team; cut bundle size by 38% and shipped a component library used by 40 engineers.' },
  { role: 'Software Engineer', company: 'Parcelly', period: '2019 — 2022', text: 'Built the merchant dashboard and real-time delivery map used by 12k shops.' },
  { role: 'Junior Developer', company: 'Fieldnote', period: '2017 — 2019', text: 'Maintained the marketing site and introduced automated visual regression tests.' },
];

function useTypewriter(words, speed = 80, pause = 1400) {
  const [index, setIndex] = useState(0);
  const [text, setText] = useState('');
  const [deleting, setDeleting] = useState(false);
  useEffect(() => {
    const word = words[index % words.length];
    let delay = deleting ? speed / 2 : speed;
    if (!deleting && text === word) delay = pause;
    const id = setTimeout(() => {
      if (!deleting && text === word) setDeleting(true);
      else if (deleting && text === '') { setDeleting(false); setIndex((i) => i + 1); }
      else setText(deleting ? word.slice(0, text.length - 1) : word.slice(0, text.length + 1));
    }, delay);
    return () => clearTimeout(id);
  }, [text, deleting, index, words, speed, pause]);
  return text;
}

export default function App() {
  const [dark, setDark] = useState(true);
  const [tag, setTag] = useState('all');
  const [form, setForm] = useState({ name: '', email: '', message: '' });
  const [errors, setErrors] = useState({});
  const [sent, setSent] = useState(false);
  const typed = useTypewriter(ROLES);

  const tags = useMemo(() => ['all', ...new Set(PROJECTS.flatMap((p) => p.tags))], []);
  const projects = useMemo(() => PROJECTS.filter((p) => tag === 'all' || p.tags.includes(tag)).sort((a, b) => b.stars - a.stars), [tag]);
  const totalStars = PROJECTS.reduce((s, p) => s + p.stars, 0);

  const submit = (e) => {
    e.preventDefault();
    const found = {};
    if (form.name.trim().length < 2) found.name = 'Please tell me your name';
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email)) found.email = 'I need a valid email to reply';
    if (form.message.trim().length < 20) found.message = 'A little more detail please (20+ characters)';
    setErrors(found);
    if (Object.keys(found).length === 0) {
      setSent(true);
      setForm({ name: '', email: '', message: '' });
    }
  };

  const theme = dark ? 'bg-zinc-950 text-zinc-100' : 'bg-stone-50 text-zinc-900';
  const card = dark ? 'bg-zinc-900 border-zinc-800' : 'bg-white border-stone-200';
  const muted = dark ? 'text-zinc-400' : 'text-zinc-500';

  return (
    <div className={`min-h-screen ${theme} transition-colors duration-300`}>
      <nav className="max-w-5xl mx-auto px-6 h-16 flex items-center justify-between">
        <span className="font-mono font-bold">jr.dev</span>
        <div className={`flex items-center gap-6 text-sm ${muted}`}>
          <a href="#projects" className="hover:text-emerald-400">Projects</a>
          <a href="#experience" className="hover:text-emerald-400">Experience</a>
          <a href="#contact" className="hover:text-emerald-400">Contact</a>
          <button onClick={() => setDark((d) => !d)} aria-label="Toggle theme" className="text-lg">{dark ? <FaSun /> : <FaMoon />}</button>
        </div>
      </nav>

      <header className="max-w-5xl mx-auto px-6 pt-20 pb-24">
        <motion.p initial={{ opacity: 0 }} animate={{ opacity: 1 }} className="font-mono text-emerald-400">Hi, my name is</motion.p>
        <motion.h1 initial={{ opacity: 0, y: 20 }} animate={{ opacity: 1, y: 0 }} transition={{ delay: 0.1 }} className="text-6xl font-extrabold mt-3">Jordan Reyes.</motion.h1>
        <motion.h2 initial={{ opacity: 0, y: 20 }} animate={{ opacity: 1, y: 0 }} transition={{ delay: 0.2 }} className={`text-4xl font-bold mt-2 ${muted}`}>
          I am a {typed}<span className="animate-pulse">|</span>
        </motion.h2>
        <p className={`max-w-xl mt-6 ${muted}`}>I build fast, accessible interfaces and the tooling around them. Currently making design systems less painful at Brightside.</p>
        <div className="flex gap-4 mt-8 text-2xl">
          <a href="https://github.com" aria-label="GitHub" className="hover:text-emerald-400"><FaGithub /></a>
          <a href="https://linkedin.com" aria-label="LinkedIn" className="hover:text-emerald-400"><FaLinkedin /></a>
          <a href="https://twitter.com" aria-label="Twitter" className="hover:text-emerald-400"><FaTwitter /></a>
          <a href="#contact" aria-label="Email" className="hover:text-emerald-400"><FaEnvelope /></a>
        </div>
        <div className="flex gap-10 mt-12">
          <div><p className="text-3xl font-bold">{PROJECTS.length}</p><p className={`text-sm ${muted}`}>open-source projects</p></div>
          <div><p className="text-3xl font-bold">{(totalStars / 1000).toFixed(1)}k</p><p className={`text-sm ${muted}`}>GitHub stars</p></div>
          <div><p className="text-3xl font-bold">7+</p><p className={`text-sm ${muted}`}>years shipping</p></div>
        </div>
      </header>

      <section id="projects" className="max-w-5xl mx-auto px-6 py-16">
        <div className="flex items-center justify-between mb-8">
          <h2 className="text-2xl font-bold">Selected projects</h2>
          <div className="flex gap-2">
            {tags.map((t) => (
              <button key={t} onClick={() => setTag(t)} className={`px-3 py-1 rounded-full text-sm font-mono ${tag === t ? 'bg-emerald-500 text-zinc-950' : `border ${dark ? 'border-zinc-700' : 'border-stone-300'}`}`}>{t}</button>
            ))}
          </div>
        </div>
        <motion.div layout className="grid grid-cols-3 gap-5">
          <AnimatePresence>
            {projects.map((p) => (
              <motion.article
                key={p.id}
                layout
                initial={{ opacity: 0, scale: 0.9 }}
                animate={{ opacity: 1, scale: 1 }}
                exit={{ opacity: 0, scale: 0.9 }}
                whileHover={{ y: -4 }}
                className={`rounded-2xl border p-5 flex flex-col ${card}`}
              >
                <div className="flex items-center justify-between">
                  <h3 className="font-semibold text-lg">{p.name}</h3>
                  <a href="https://github.com" aria-label={`${p.name} on GitHub`} className={muted}><FaExternalLinkAlt /></a>
                </div>
                <p className={`text-sm mt-2 flex-1 ${muted}`}>{p.blurb}</p>
                <div className="flex items-center justify-between mt-4 text-xs font-mono">
                  <span className="flex gap-2">{p.tags.map((t) => <span key={t} className="text-emerald-400">#{t}</span>)}</span>
                  <span className={muted}>★ {p.stars} · {p.year}</span>
                </div>
              </motion.article>
            ))}
          </AnimatePresence>
        </motion.div>
      </section>

      <section className="max-w-5xl mx-auto px-6 py-16 grid grid-cols-2 gap-10">
        <div>
          <h2 className="text-2xl font-bold mb-6">Skills</h2>
          <ul className="space-y-4">
            {SKILLS.map(({ name, icon: Icon, level }) => (
              <li key={name}>
                <div className="flex items-center justify-between text-sm mb-1"><span className="flex items-center gap-2"><Icon className="text-emerald-400" /> {name}</span><span className={muted}>{level}%</span></div>
                <div className={`h-2 rounded-full ${dark ? 'bg-zinc-800' : 'bg-stone-200'}`}>
                  <motion.div className="h-2 rounded-full bg-emerald-500" initial={{ width: 0 }} whileInView={{ width: `${level}%` }} viewport={{ once: true }} transition={{ duration: 0.8 }} />
                </div>
              </li>
            ))}
          </ul>
        </div>
        <div id="experience">
          <h2 className="text-2xl font-bold mb-6">Experience</h2>
          <ol className={`border-l-2 ${dark ? 'border-zinc-800' : 'border-stone-300'} space-y-6`}>
            {EXPERIENCE.map((job) => (
              <li key={job.company} className="pl-5 relative">
                <span className="absolute -left-[7px] top-1.5 w-3 h-3 rounded-full bg-emerald-500" />
                <p className="font-semibold">{job.role} · <span className="text-emerald-400">{job.company}</span></p>
                <p className={`text-xs font-mono ${muted}`}>{job.period}</p>
                <p className={`text-sm mt-1 ${muted}`}>{job.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section id="contact" className="max-w-xl mx-auto px-6 py-20">
        <h2 className="text-3xl font-bold text-center">Get in touch</h2>
        <p className={`text-center mt-2 ${muted}`}>Open to senior frontend roles and interesting side projects.</p>
        {sent ? (
          <motion.div initial={{ opacity: 0, y: 10 }} animate={{ opacity: 1, y: 0 }} className={`mt-8 rounded-2xl border p-6 text-center ${card}`}>
            <p className="text-emerald-400 font-semibold">Message sent — thank you!</p>
            <button onClick={() => setSent(false)} className={`text-sm mt-3 underline ${muted}`}>Send another</button>
          </motion.div>
        ) : (
          <form onSubmit={submit} noValidate className={`mt-8 rounded-2xl border p-6 space-y-4 ${card}`}>
            {[['name', 'Name', 'input'], ['email', 'Email', 'input'], ['message', 'Message', 'textarea']].map(([key, label, kind]) => (
              <label key={key} className="block text-sm">
                <span className={muted}>{label}</span>
                {kind === 'textarea' ? (
                  <textarea rows={4} value={form[key]} onChange={(e) => setForm({ ...form, [key]: e.target.value })} className={`mt-1 w-full rounded-lg px-3 py-2 bg-transparent border ${errors[key] ? 'border-rose-500' : dark ? 'border-zinc-700' : 'border-stone-300'}`} />
                ) : (
                  <input value={form[key]} onChange={(e) => setForm({ ...form, [key]: e.target.value })} className={`mt-1 w-full rounded-lg px-3 py-2 bg-transparent border ${errors[key] ? 'border-rose-500' : dark ? 'border-zinc-700' : 'border-stone-300'}`} />
                )}
                {errors[key] && <span className="text-xs text-rose-500">{errors[key]}</span>}
              </label>
            ))}
            <button className="w-full py-2.5 rounded-lg bg-emerald-500 text-zinc-950 font-semibold hover:bg-emerald-400">Send message</button>
          </form>
        )}
      </section>

      <footer className={`text-center text-xs py-8 font-mono ${muted}`}>Designed and built by Jordan Reyes · {new Date().getFullYear()}</footer>
    </div>
  );
}
