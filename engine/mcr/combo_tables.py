"""Made by ``python -m engine.mcr.make_tables`` (do not edit): the chow and pung combination tables of
``engine.mcr.fast``, loaded at import."""

# fmt: off
CHOW_VALUES = ((('four_pure_shifted_chows',), False, False),
 (('mixed_double_chow', 'mixed_double_chow'), False, False),
 (('mixed_double_chow', 'mixed_double_chow'), False, True),
 (('mixed_double_chow',), False, False),
 (('mixed_double_chow',), False, True),
 (('mixed_double_chow',), True, False),
 (('mixed_shifted_chows', 'mixed_double_chow'), False, False),
 (('mixed_shifted_chows', 'mixed_double_chow'), False, True),
 (('mixed_shifted_chows', 'pure_double_chow'), False, False),
 (('mixed_shifted_chows', 'pure_double_chow'), False, True),
 (('mixed_shifted_chows', 'short_straight'), False, False),
 (('mixed_shifted_chows', 'two_terminal_chows'), False, False),
 (('mixed_shifted_chows',), False, False),
 (('mixed_shifted_chows',), False, True),
 (('mixed_straight', 'mixed_double_chow'), False, False),
 (('mixed_straight', 'pure_double_chow'), False, False),
 (('mixed_straight',), False, False),
 (('mixed_triple_chow', 'pure_double_chow'), False, False),
 (('mixed_triple_chow', 'pure_double_chow'), False, True),
 (('mixed_triple_chow', 'pure_double_chow'), True, False),
 (('mixed_triple_chow', 'short_straight'), False, False),
 (('mixed_triple_chow', 'two_terminal_chows'), True, False),
 (('mixed_triple_chow',), False, False),
 (('mixed_triple_chow',), False, True),
 (('mixed_triple_chow',), True, False),
 (('pure_double_chow', 'pure_double_chow'), False, False),
 (('pure_double_chow', 'pure_double_chow'), False, True),
 (('pure_double_chow', 'pure_double_chow'), True, False),
 (('pure_double_chow',), False, False),
 (('pure_double_chow',), False, True),
 (('pure_double_chow',), True, False),
 (('pure_shifted_chows', 'mixed_double_chow'), False, False),
 (('pure_shifted_chows', 'mixed_double_chow'), False, True),
 (('pure_shifted_chows', 'pure_double_chow'), False, False),
 (('pure_shifted_chows', 'pure_double_chow'), False, True),
 (('pure_shifted_chows', 'short_straight'), False, False),
 (('pure_shifted_chows', 'two_terminal_chows'), False, False),
 (('pure_shifted_chows',), False, False),
 (('pure_shifted_chows',), False, True),
 (('pure_straight', 'mixed_double_chow'), False, False),
 (('pure_straight', 'pure_double_chow'), False, False),
 (('pure_straight',), False, False),
 (('pure_terminal_chows',), True, False),
 (('pure_triple_chow', 'mixed_double_chow'), False, False),
 (('pure_triple_chow', 'mixed_double_chow'), False, True),
 (('pure_triple_chow', 'mixed_double_chow'), True, False),
 (('pure_triple_chow', 'short_straight'), False, False),
 (('pure_triple_chow', 'two_terminal_chows'), True, False),
 (('pure_triple_chow',), False, False),
 (('pure_triple_chow',), False, True),
 (('pure_triple_chow',), True, False),
 (('quadruple_chow',), False, False),
 (('quadruple_chow',), False, True),
 (('quadruple_chow',), True, False),
 (('short_straight', 'short_straight'), False, False),
 (('short_straight',), False, False),
 (('three_suited_terminal_chows',), True, False),
 (('two_terminal_chows',), False, False),
 (('two_terminal_chows',), True, False),
 ((), False, False),
 ((), False, True),
 ((), True, False),
 None)
CHOW_DATA = (b'c-rk<YkI6KklspGa2|n<=yF=y-v1KDD-=*S)K2ov%=vMiBq|~lb$zSKG|Ruo`v1T0FZ0iIU+?ALu>SwgOkev&H!WA)m)kDPzpg)Y`&E0~XJ6Ze'
    b'ali1rUpR&t=3&ApW?X)o!l2EUIqq9;TQ9c%OuLTx+TOT~0q&YF#yOb|T=??gVmJS`4zW*belhs2G5omPGd26K&DVDm|AA++X`4R2ciOJZZ#Ku9'
    b'%QuXTeirlKEu6(Xt4H|hc*YL-%zg5V`?AfcU0Cj0u6FY-xbQ*CU)%W`<Km8C1<ZE44+Cyj$1t<!KB))X;cdIOhvqT-@;TE^N2>ikrW7X`-Z{Vi'
    b'Snz`^<{`Rcp!o%6dmTp`^B=?NZX47PWCCVetTLd^Hla=jw;#@Sy)B(B__B50$Gq%!pwD-_<sIfd{|M)8O-fiPdB@ohpFKbBGrF{0GTuu*E<CZ!'
    b'H;zqyu9iFJyKGpEiJt7#G^e&SKXVtCW**Kp$yyoY49`D?og8xt%a__EOYP>f)SN%y>woh-`4M;UJmp7x{!c#RZcK(BS8n3x9e2z5cj0(%?;4k#'
    b'b>UEs>FJ*T+YfFy2{XkbhkPcyeR|zG-~>lR_TGf^%kiW~T##<(JUgHAJL~=Dd@3v-7^Cu#kTC%fNIu;8Og{tO?ja4f4RKnwC-w<VfnfbRz7>^2'
    b'U~JzcwB7|;pH6W<r{I3WPAzRh7R#THn<Hx*!N(uNZ=|w*cndx}VV-`9tIaQgCzk-Myoy^aq)89OGgUXr%X_R_a+u3wauD<;3w<eF97<csV|H6!'
    b'k1TI|+O7-TunX-qw3aV)6nKykBmyrCwF$p4RK`(fj-7JoRCu8RL%WB|*j>i`clKK?Dru$*WMw7)Gf$auSZsqi{?LG5&$5;eo~uG4e{#R)1vXuk'
    b'{C81-*mVKOZv|bz93uklp!+Xq2T{t;zoH7l{DY_=xa1Z|Loj2liXcq-wKLy!-1YSSi&8hre!pCPu7_)T`Ej`L?-{o{;XsISGlpl@by{!w=aGlz'
    b'Rhi;av<<N=Ju*Lpf4soaFi~FBDpQZJILjX&$GgX7*RwW{M5be~_MnsPL0t6&GH}3kjFckt?U}IWmz@Eu%r#ABl<t(f4YiE3ec7R_3~#N03K`+L'
    b'lL_Y<8`5%(qS>b`VZt074~72vgrekFT~7#twn<c9AD%4^N~=)OTq8)e?a}=^Fel9LKBXOcX2mm+Rw*61aZ?#IeO_;Lb$VmuPGe+F4}>{^Bl7@s'
    b'`~n-AOu_DKZfXuqbU#$(a@uuM8_r(>StC#%=Re2AUv<f`p&TjcF%mYFAr|X0Q9oT!T9)-AUu4P`2^y=Go(>Vl5mZJQ56sdVP=S@uf!Ej~4}wJ?'
    b'BUueaf$>)2>eObASD)-U;?j=W3dChw#JB>d!#3d4ffBm>!clRquUeaH#}Zj53P%M~EXdm0LRB`0a{6i0Os9B4+w8h_HjkzjiWV1&I>FR6TF0wa'
    b'RVkt%9}=9u$74$?@fXj*JejdMZL&H8*}<6WoVlhV+OOt#3$SQ|IQnBI?Z8@x?sF#XSZUHWz@!x>J*0N!HpkQ&g=Xz0m{fM{CgMfIHk*JWAA;H&'
    b'FxT?MF{6%mLWdIY#GYKRakq!YXfk%IdFukN&8T8qopnO-CP*TgowTp~^K1X6V^~l6*NaunUIvH_C@-ZcJmiyZ*Kt~G3UQoyblfB+Hmu7&O!fn&'
    b'GNl1(Y>F^Q-4hORPq@TA;h=j0KAc+cyY{vM7+wJ{@%J1U#W}3>U})&pp=vM~a(x(5KqtFMHsx|#!fyAJyx!M6C6TfYfjTwK#fX1R%*$2AytM8@'
    b'r`^n)MdzD2pjwxHH$#Mu-OU8*@B#oAc!1bXOQsQLy*&Uo6)b0Uv_Vfg;3*=&r}4o-&)QB+IE&9w6AuwJf%xE_sd<3-;K=BmYY>;72jg*~s#SSR'
    b'AYHL0%|6Js2pwxWETncSUYX3zb1Y=K%V)&BMf4zDF{9Xz6AX^2@Fxv7`jdvlpX3C85&|6nVg`i{09Hehd!`kQKq*3*C?OI>9tx+rt6U@xb-2~K'
    b'koygOs~U2bBKL`6_=eWxH+;+Dh-JvVi0b2~%qz&9{kY7PW?gR5PK9Yd3a0%?OoZ1<MC8F#*w#(%@cPV2%*<THQA7`r<KqQvh%GxUZ5Cof-MbDy'
    b'ika9U2d_Pf$#MTWz{;e;Gbl73y~0!FS@vpK;3W}Mb0*cVEhJwno=KD^L5DZRlVbEp!;^C6(BwyQKDC+et%h6VPSgrjbP~CREj@9mDWrwTS9r`T'
    b'{aV0Le23cy0);;0m59qyp~D(cht=wBV{_eE&zn5`Zx~i3=K6P3-9Ie*<0<<OFq({t$V?a*l4uh5ZR!UEk(nWP?(hIRiz!hhTlD#CLk<oIS}Y;G'
    b'@4z3Y)Zn-OAGDBy7G~bbfA3??^KXd@e*K+^Srj1)GGeifR2i`VuRj;Dc>i+1V*9ht{kq$CN>K~b)P^lKrSD|iVpE2z0~c_QhQt$jYv96+w?-~L'
    b'u$xC}&NCWY+nl>Cg5iR~!R_`o|9CUQ83wp*`E!IhiTe<Dx_RznOkof&=E-m*P|OKEw9qP|+~`C3!Mm5HMLw8twxkHO#23U9U6-$m0?5FqUC?2$'
    b'W(<G-Pz<dYFb^9Xrsa~uJjER3f9{#4Wqo5V^<JHp74979w5%Q{xBd`1{rV__;DICbl#emaIT^3d*(k2>!eM*bxxv0<D9#+U2*kVkOm7?;$r4Hp'
    b'p+lEkcXbTk2oun6)B96x`wdmX_n!<1My=%o0l{40UW*8x6b=sePSG*HC`~khNOurd3y3R5Bqx}1-wR~c>yALrklB@lD2Am+A%MSA2v`ocA<GjE'
    b'kL9~NL5h#Ot_>ZgTB$7szdh<JR#AGXy>gU3;2f)#)VH;*Bz3@JR-$iMqOa%sHAJ7%8yk>gLjObZ#*~>qGEdT&Lqf+2Na#(+4vte=1a-)PV0p37'
    b'fg=2mWbZK9=X~<HLJpJ2foJ9r<&gsn93Gy^+_LcSC0fg()kY6<Ek|<qMlI)oolbHQCzv=I&Z-55OgyU=2q+8VEH*i-HaV;FjmgpJ?n+ijSIl#|'
    b'SAS=K>8432Lcl+wmv;4@*Xb_@gn_ModqCLT7ZAox{}EdLl8pD7fG#8AlWz*n291b!RQTa*dM7fQ7yX=hc~<n_6ruJt`fiaIC4`B&tU<^}zu_d7'
    b'pm7ot=DCSA1vinHoY!%aDo&fn)U7KbBh!aMOm#NPgsfjNQ8}{xM>!!AlF);<2MN7BT!e3<oT<Hnka3JwCB5((D@>X2*91xNG+*r1V!hTR(!!xh'
    b'lgRagNpv2><7>X!XYUkstkYakKP_4HYh|ujgFRw|N<>g1LM69rOQ}+@?;@_9rMh2Y=mnhNiZwjR3_Z)h#GF~{*g-GP;_+tq4fxXg)99tEp~)1!'
    b'^pl~e1izvLPDM-FRaw$%^K1HH6Ynqhgv)ALf5AhR5awStx&OmTGJ?wbFUy0Rkej5kwX+vcW(h`YEs~wa4~3#`4dSO!V9v5}nynzWiNCH_Es%2a'
    b'%nrBlaid$u3BKetToxkai6{B+N!w*5eR{bFuZQz#)~PQzJTT4}P;*_Jgb$*{A9I?X2clpTIcA^T#`;UK3+FiQ&n;I&AaJRD-mg~thVowj-$869'
    b'%s2>tICeZS5hk%O#WwGLeb1CX+8KPVV1=aj1zET+=DPDs?FI1J2<?VC3fS`6=l0{Gd>(5HG?{I!9yWYXSjZ_s=yWF4SxN!DUkh1b<<^AA@M>2Y'
    b'K!&e(pA1UY9!S=Z)1~0njhj_`e13{&fmoKcT*_-KKAxJ(wx$Pttt!&{xDAwbH(^&(9g>`U1kQq@g(VF_4ebd&rQDdYG3=(*uP-3g`j3hQaS}q`'
    b'iiYg;J|!SsvPj7z;Bik8zX_D@BYpVoiDd;|fKbQdFJrTxn`dKlzU5ND-m&ZjR&VEUha42NdBE?AbLx|AUEbIt2PvU|r6@mo;5-64I=DNdl$Q{t'
    b'5P(n|zX)dB%0<pgyv{bf&#p6`kLAkG_nq0!+h$$w$1ZWI7Au2&pGDw07(vfd${sYR>In~P{@DP^`O5gtBiW@e>&ITf%q`skh~g~tetConvb$UC'
    b'>({fgEwXL48Emjn+aSvZ%H7*|s3B*1iNpeH`&qOMshamC?_BF2Nt8PU;uZ|*{^U`(gRmgOyk%`c5iyJfZ^fE+PMqat*hwxI1zH)L;meK4m&anu'
    b'cUiTF{p0ZYz$DlAY)9vKG{OWnXI)^+h5S26VIlulbA{!*cz_dZ+!hzuL_)`k1Tz*WhDNV%`3#zOOlyerjLz#&s{JZ92ngXop~jgtEk6g#ZGof!'
    b'mD5t_Wg6QU_+X1lfwnx&%SYl0;Qo}yz_OymDW1Y5kIM7Kr3}VK4!i^!GYRC9B^wGlEyw}lw^!2OB^0-6K#M+(;(KF1-+P?rjjS5bs*z*@^0iUq'
    b'Sqz6rWSSC357*cyG<`?4AD&|z1g4(C)33V{E)N*!mprgsS`UMwnz${Y27o7_MYjZMBng4+QF?+v;{L)Srv?Z<&X3OUCEV9&4Uy`@D=$4E$yNi4'
    b'W1T(5z9^Q_uv!knhWm@m8@e*CGPRE#Pv9y1Br!lAcB*YPhte`d*Wczs>*$PFJL!CtE;Ni-bTIqBL<jpuS*b6aRdJ#_2TPP4D5DM=@=(G`B|W3}'
    b'dCjK|wZ%b(4fHK#i9)$il4tyYbKS#Jv)|AsiBj{O9SDLc182(*<Keaby#5$-LOiB3?ns2_5nQ@N^voI^OVAge!+Nr^jXVMl+2bcXh(5~%KxmC#'
    b'mjUh<w=g^Ee_5STLm=$x!1QiRjUSGO1ED-h1eD^m@QaM5g(LdDN1V|msptBB?)PYO)ug4gMOtvVrJsaZFw=fPjV!!tqfNUhI6IPLyLP~^$0MpJ'
    b'duNVG`0}LoN=>U~Bti>5#Ys9*Do#J54uezW5rr2yR4&mZmOai{aL%JOCrnhLJ<ESkmt5iZ^bk$7YQp2L^CDXukv~kL1T#HIf>Bquc>O$uN+odM'
    b'2~L~{>ZgkK1)3TJ=Zq$6nWQNf5Q|H5368XS@_gaUn{vXW%sb)|A@ioKG|$e0%N*heiyoEWNG(BFrA3$>h@-R@I1oU7!4m;!H|c+2pw3PbGPF8$'
    b'QjS8WBtVTMLEkQ*wU614vH<TnaY)L9?z9}aPlaQHlxOvnh?e=3nEYuTn%bv7PU{c>Xf{KYGmj6GcLljb8-~a9*hz`$ao^iy4gz!lQUgM;2b#3a'
    b'fHXyjs4PN}d9~ZE!{-LBF>Pq&3JX#kgBGomVT<rFb+~k7T?<y{#-kcLzQsIL5CTUPESS*QQYqgPUtS4yJ)A48bTXu~11n66r)#k>^d}u~M|Avb'
    b'iL#;%fC|tmNobFNG%sYTsE?!ym*Ol)RT}9t0k%ETi*Hs`&&rriM$AOC%aI51sSP3tS{1Q{#YCox0!RAbfID5;sLJmw3le2jBbkWSNv(3mY;xv}'
    b'lh9riD=`D0ae0(T11_7*-EO{>Rc~+=Kc&0uEv0)##awGfLG#wI7$4zohzgG?Ylo)DP=ih}XPkK@$x0b*Qg0(IsY%TA^>nH8F;R7jbMZc@lIn_$'
    b'W=L}T^;&*-<eH93jmhIXDs`h!o$ttr`Gh#iA~rw7zcNMmSE<A7wEYNB_q$N@Gu^#YB>STQ8aLAKEz!8sYFinp8iSCk9fHQ)?Fx5<vj=scE$X0d'
    b'7fq^;LtQH>XdQy<CW3@b4$ufr?(tCXy97^8G*3<?h1u<b1CD`|XgTIO#xLHA+#@wm-ze(`)_BJtuP0gEJ`-s=V9dBaRum`&{jF<ZdSj|0GR@Q`'
    b'TtpTvoXBFNldNph!O%PEkbWlWcfcxjx-;CfK+CLpj_ukr*S4ONuI(j|0kMGtT}u?47+TdPi|^63M5bC@`y|wEx~6OYYUKEx+t$O0XedW_p{g1m'
    b'rNP+-t!npd^~WTB^gI<JlvQnkBH1}l)vES|poP1pX<vl`Oczz{CRMdtMAc3e8-o#8a1J`IsAA#w;XQF;=}<!=e)$?pnxY~`jV5;YR0}O%SY;C9'
    b'U+0w-3J;=S)0a=BcF(`Pv8p$ZT&K>n7*K`zlwu2QyGx2<3Cg=w`9XpmKOins)9#nqk?DVk4g*b;9X{-E(TZ$xicfQ|L!S=Ltn7}z?VL61z7ffv'
    b'?z;i}jM1nxA&S!?VVw4;Rcu<`s)Rj1E#LFgj+t3GZax_hG|JMHpHdWOjM9d*6H`ay_Q^hEtrfnUHx23Sr1ViLu4p(&QHIkCeY>|g_RyvrNrMm2'
    b'17%~d%`RZc-tEOZQVfgVFb2sOa{{*kywKhPoGbIfL(2PS^eUd3@VXZ~sD=gMTt`a+dvc^9i-<kR>*QRcioE6SMcg{<WLn*wVqz^yq{KCCP~z3R'
    b'B!iNLL*L($;+GM(z@Qw?!fVePgBepj%Ba^_r8F?>S^C4CDtpq)SQUXDS##2(wKqj`a^Tnj{kB0aYA4#0_n@Aq580D#QoRy|ZkJk$ktj&UYKZ0e'
    b')8=DXk;=1m`OA?N*5sv%{N)=@Mp)gg=H%5PU6MIjluV7G60!>ls`onBhl7%uAhaR$K9L=-Qc={Ymf(ae3clOPDT1rb+rYhO*Xa#n&)#z3<dmJJ'
    b'g_Gys-dKG~wg%oEl$})%13@azbJB?=Bdct;+ianvsKf0_{#s_^$JIi_aq@d|mv)@o%yDza$<LjD=zU|mvf7cV{9(@fY>Ik$v5E-i#o6(x%OBAu'
    b's;d5}soP{Pbr-dr5*q+T6Vo0wJJNh(RD+;#V_7?gcyXBKEHJVKzyU3f4hVi6yWQ^fejH>%R^KgVrYPExGaft9XLT!lUgWIkEJ30JsOXyH%NbH9'
    b'(j#@n5FJZjNKD2bE1Wok2>)Iqrw8=-XAu7J7nM+DDif;k8X{R2(sr*L41oc1v(Egu6(RXi=g1N4UUje0q8z<xvwHL;3hZ5FHjibM`-<+ON7fVX'
    b'#!2fYoT%o^^)pYrIPVQ&8_Ekb7zVebo$Wrl{tWDz;1PgE^x<IH_oxpCO+IQ^6o}G?Q?|5&ggfY*6fmZXv3)7!$k(MDH3S!3#~*cGoCFjw(R3;H'
    b'?NvE(s1^X66Xz{d68SLvHuK>;s^GVIl;}x!vGrPEeXg}zf(U=gFuTgGZcI_Br!tA6zM&i1R9=AI5HCO38%>VS-csg#k{vrvcI=ELE@e;vQzWg_'
    b'P#s(vEznYKW?KPPI@!fm>DGzD22bx%x^)JMD6Ya%&JnW5yBw%{8|W?bQQ7a7p>(mgZ5riP^|jR*R3IH)RuN$c`N21KioIf%J3HXkVdE%gyVzEd'
    b'dhtRXsSk2nr*ou!wUs1K>d-ZSJ4+MYy~0_VcbPMp|E5-*f1N&Lu;y8AN^<U0MGKx9FG^Be{E|!JvxYY5PyM8Qmbz1aR|8hT&~ELn^W$=-@TUIa'
    b'X$17fx^`hvXFHyA?b=Cl?Urq69-&;}PdR&oUn{zMvo?;X1Ij7<y}CYOT)lYU@=P4QUdjd=D9ksG+bb1|@_tx<;f2=X>~$HOF9Nv7c)N*8`A6*q'
    b'q5H3*e}Q?(#TQ&u;5Nm}_zLh|>hQJM0F@43`a1*{GF^>jtn>H=6y-)>9a@sD%`5Cvok<lQU-k*c<(pKtdMfG{dnOxf$er0PchCCz!VCF&nU>3R'
    b'L*ssL(s5F%6rEhpRujm~L@y8AyQ`{S;D^t$4R@C&fiV^PhErA5WXC7YQ4tW_Snu!!wEV<is820ykFB_XFwwN%xR8kO);aSAmJb{+Yb)Hno^GT{'
    b'VfOGsTHRG;m+jl9fb2ODvR6i=ok%@}FQ3QkQAuEeq%{(TiY5u2WN;!O3}kO-3bBXP7a5g+Ju(68B4F=SS4egKS5YwG!3P(fNdA{1f7;V^3);F2'
    b')mp7hWj6xiD{8bpRecW7;DYDOQ%HeQVc4fK`zu+tmVWz*=z`aMSB($sqXvFz`%d?{dtIfww}6Krh}8k}&?YH5g3*Dhg%<br(gIkSGNM69OL$cT'
    b'lU=0`xy#%Z*lEz5eXClsSHV@C9Bn^&qCm0Qj8*CzHNVb@lmaO`$<AIZnm8y<9Y}UV;)#P2RmFu_9+D<ZnCjTZg0XCc-kTtYq;p3F6m>zCp%TO~'
    b'DB_7%V=P|B^{eEIuM1pOyr~t=9q<GK<^p{<HYqOM=$T7)<a0-=wYgW9h>E;U7%fs%bwVbSd38;24%`z0(m7U%eu?#7%Ct}7?XI_9aoCWM`d=`M'
    b'RfzgKOroL`!H+4Ue@RG}F`z%iE!Kvul_9Dm`@oK;vk&Yfho}q~?+98Qp7Z}hQL9GVW3mifah=@}$dxv9<;eSq(&1>h{aoqr69JPVSt0X$vDpf_'
    b'pF+-7U~+AVbcGR(eq@>}UwncsXNU{AJE|F~BZ&_0xt)a`j;i5Y(eRe28gAqVPW6CYU0>R=6Is4OlCIF6%~wD}SM0}ChOXo_Fyb0$1Xw5ydo^~I'
    b'rMrwfbcbmi)S}%vvDnpcr6bT-*AR$s*3_Z#iQpB9-o6;UB0@@SI_I_`UBN5L)s<UmT5UxR0_^jqUB;xA-c|NwQKFnO4fpqhSA|MY7rl~1Enag%'
    b'SHe&y9E?N?q<3Y~M6brWa`npch4)3TIPyACZbF%r;3~5c6xb<Ey-W(ZqR&g<OPthb7UmMQotG-^R$`Ne9dyIamlCJISPKk2OVeNsA|U|_(LU4k'
    b'FE14deCP{JU^%f!h*nediH2Gs7DB5Fh}5Wpk6TnhEJTZRMts&cMkGSCp7khIrYU&s$fsQBH@ry<UHz;>uFG6Mw}-Br5V{(<oN~5Gvo?vmrG<{K'
    b'O@`B1k%ER}bTa3rj9_IZ+>Mc|^T!U)4oX}obaqgDLJ>YH(t}9&>-CS!f@ap`4%SKOj6P$sROc#9g}1jULRVL~Lgu4Yu!Vs{?)iG#2SFOM)!Ws`'
    b'y&6A|sEQg%6-7GLWjNIuzCa^Mbh_xEP)5({qKas?*UH1}V0uXu`#ODNI<Ez^B2OSf>lAOy5WrQuF=tRs&Jt#>k;SKEj>RG8t1N~|<XE<hPlZs;'
    b'569p8yFx8xH-I~12S}f{AMiT=CD-1y0DO%F-2axXU6!=_JyYY4>pTD&^50-^k<mzy0bP>`J6tJPXfY+SWXZnC{uG*3pfCdazaK`x77E)@1V~Aq'
    b'5<`HLQDHFzNG%FAhT#2!5CSytNWlm~LW>4RP_`h~0SWRZP%@H$hNRwwB=|&Q#5=>mR4!~0!;zC=3rBoiHf-t5)MmrV?wNDxu(Ellt%9g)W<ly&'
    b'xA(HR8Ir<a3LK6pP_!U7-&9jXsV8E~H${voG__-()F)}^@q->Giyz|2uvso_drvYf2PROjO+A>v=~vMS320|@X8TIf1mBk`9}aZo!=5IgtR^Vp'
    b'a0d_fY;q!=ZO-Gt;fTEu`r;8mr8(N;yOX@8uOSW<%ec>;`k~T?@81F$lx1b_0T~osIWM6M>h+Bq`f{EUHb$-pNBdw^<kstsQGaU*Ds@4B$pz8e'
    b'oeSG)b79NU$9w>zw#ykG*{q;*4)Ay`A6C<V_Pj=9?j-bjc~L{?ID^n3cT!(W%Dx|&k8i9`vbpJi!EtgclC8hsHRv9X6n7SFv>R(Xd$G2&zf#-T'
    b't7|*^duuz_*$|)8aDa7U<4LqY<k+MsU2+m_auRJ8YwND1$MOZLlQ;F(1By4jS^+ZnpibG<d$gzD1sNcv{%-*pxcfi`BD`OnIbTyC=#&RQ)I`li'
    b'0nOQsX9cvsul`GAA}k)-KUI=rzQz?r&bfj$1y}I*l_?OoV~%;Su80~<w}#>B?1c$gt73WzoWXDLF(&Y%Vq}AqDl%Ni6_N6X>LF87uE<6IqQ=rN'
    b'H!`yRbX8~E(m0bOkiMoDER9;Uls}Iq@Un8_@58LtYFe$##$+%T!|_uvSH|&kgRo@z1(z*C^P!N_X}-%Q(bbxflgxLsf)80>8N+-HKZ5yse-QF@'
    b'HOQM{zJ4eonATkR<p9jjIoY4T<@G#Kc>iPmAV6?`(FFa^DVqr9>%YgQ0h5blVJ{%p(qcFEl}EdTehdxbnNT3tvT@eGeg6;46MXv')
PUNG_VALUES = (('big_four_winds',),
 ('big_three_dragons',),
 ('big_three_winds',),
 ('double_pung', 'double_pung'),
 ('double_pung',),
 ('four_pure_shifted_pungs',),
 ('little_four_winds',),
 ('little_three_dragons', 'double_pung'),
 ('little_three_dragons',),
 ('mixed_shifted_pungs', 'double_pung'),
 ('mixed_shifted_pungs',),
 ('pure_shifted_pungs', 'double_pung'),
 ('pure_shifted_pungs',),
 ('triple_pung',),
 ('two_dragon_pungs', 'double_pung'),
 ('two_dragon_pungs',),
 ())
PUNG_DATA = (b'c-rMy2a?+`4E%~;aKmPcevU+m|9?VAKw>ewZTZfV%;b&*1Qu<fL=Z;EkGRmE^}@CJ^FxW*hzlNbz2K3TqUOM^_`ciBifcuVM>9x(mOK812Mn~`'
    b'^%|&gLIU&%XNAK#12F~qrMU@^IjzK7;QD566x=WSPXRx<o*g`^#CwUR(L+GK`kNUrA4f(=fjM*q-JyDUbVoe6lc-bvLIm!jN&%`QxJ+V~Mc}fF'
    b'@r_V-!M6=xpfvszcqI31vRJ3n!vZ}Goep=XQ<>jZ@@no_CD!&1PB%D!uxDZn=PoCU*RY=ncytd8IK@F&m<y_PgzBlDt7@9^2xKB8GbuHp0;|NP'
    b'b?Z&5_ht(dveuJqUlB~q#z-^I1tS~Dr#sdTd(69nyho1JbAyH&o+V+;+6Jkx2-QWsUWD8gA=ZK~%AVr$1q=^t{HKQ++Akz%qb+SwmRM9;CLoG#'
    b'`sw1P8SnCiU2%XEACN*v*mPRF8?=Rbt}TM(Mzyr`bqPv9O{w8-DcM$y=826aO*Gm+{V?J_D#CF66rQM&_Rh0PD?_Ey8Aj=Ofc`QOz}p)h$>S~T'
    b')3%>;1s0MByfU@9>0Bcow~*g$gin$JVrie6@JqU$&oML;q@X@j+(z{n)a%NZe}S6pW9zE|ev)tDC%@%UGfZQ2g&tv6hG>h`K*%z0@zm<Od8;2)'
    b'p2mvkibRnDp6lGz2T`TuRl`P8aP$STElq<)xwU#^Ftk~JJT3Dtre%1$;So9B;y$HbI%f+#VRd|M8h9;p`ys=?jCz6LlR9Pv_A?15booQ9Pjdke'
    b'B&muSp(l`iE#O<YHZE+V*hop38RU$a;kQ%R(@Z}%Lhu?>Jv2&g6)@;|ew0k9)i;ik>lmtJl-#Q5P8%hCh%1w&2Dvn0G6Xy~CP*L7s0&3KAWs4E'
    b'_l>~9)NXZ8FC7e4N@>zRdhUni^#2Y^j=%Ta@g5H{W023;&MHh>)M1!zY0cb2Qh-VMzR8=k6RXV?$o2G{)0k$H7szrIvsr&S#v0c1P;-vk-nM}z'
    b'c9^qI40FHL(ZqOhw(s}&cI>~oDyUdx$m@*RH%|F=3|2Dbw>rEt#{AL`IX~uA6Z3g<z7Kb8>{o%8=6?!2$MDfW??W1qjp#r)r3k0fzEBDuSuIK!'
    b'=D)$>@BMPg1S$BJKhX;8GRz4ssb9)ug}^%>3E3^`4)yNvhK9@@(dx^jj}z%+dsl(_#`X0JF|$7hgu451Mg4Ukc~i@=xgEj}%Z^BE=U^Z_vb=xR'
    b'9Q&k=DD?R(%(9gOIZ$LYTPUqV`9WhtJ@cA{s0Cy$`1e-unS8OsS)<wI$4qhZA^mv{3a+PC)P+2iSA(FRZ0SlqqrOS|_x|bXzc^I?7l-QC@AzKs'
    b'F`4$5$UP>~#YDPi{VPg(uh(Z{GVm2fpZN^??V!->$x->jp!@^2DUF2')
